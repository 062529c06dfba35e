/**
 * CPU time and memory of a server process, read from Linux /proc: utime + stime from
 * /proc/<pid>/stat (in clock ticks), VmRSS and VmHWM (peak RSS) from /proc/<pid>/status.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** Clock ticks per second of /proc/<pid>/stat times (`getconf CLK_TCK`, almost always 100). */
export function clockTicksPerSecond(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU seconds out of a /proc/<pid>/stat line (fields 14 and 15). */
export function parseCpuSeconds(statLine: string, ticks: number): number {
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const rest = statLine.slice(statLine.lastIndexOf(')') + 2).split(' ');
  // rest[0] is field 3 (state), so field N is rest[N - 3].
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error(`unreadable /proc stat line: ${statLine.slice(0, 80)}`);
  return (utime + stime) / ticks;
}

/** A `kB` field of /proc/<pid>/status (e.g. VmRSS, VmHWM) in bytes; 0 when absent. */
export function parseStatusBytes(status: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, 'm').exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

export function cpuSeconds(pid: number): number {
  return parseCpuSeconds(readFileSync(`/proc/${pid}/stat`, 'utf8'), clockTicksPerSecond());
}

export function memory(pid: number): { rss: number; peakRss: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rss: parseStatusBytes(status, 'VmRSS'), peakRss: parseStatusBytes(status, 'VmHWM') };
}

/** Resets the process's peak RSS to its current RSS (clear_refs 5); false where not allowed. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

export interface ProcessUsage {
  cpuSeconds: number;
  /** Share of one core used over the window (1 = one core fully busy). */
  cpuCores: number;
  peakRssBytes: number;
}

/**
 * Measures one process over a window: call `stop()` at its end. Peak RSS is the larger of
 * VmHWM (reset at the start) and RSS sampled every `sampleMs`, so it holds even where
 * clear_refs is refused.
 */
export function meterProcess(pid: number, sampleMs = 100): { stop(): ProcessUsage } {
  const hwmReset = resetPeakRss(pid);
  const startCpu = cpuSeconds(pid);
  const startedAt = process.hrtime.bigint();
  let peak = memory(pid).rss;
  const sample = (): void => {
    try {
      peak = Math.max(peak, memory(pid).rss);
    } catch {
      // the process went away; stop() reports what was seen
    }
  };
  const timer = setInterval(sample, sampleMs);
  timer.unref();
  return {
    stop(): ProcessUsage {
      clearInterval(timer);
      const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
      let used = 0;
      try {
        const now = memory(pid);
        peak = Math.max(peak, now.rss, hwmReset ? now.peakRss : 0);
        used = cpuSeconds(pid) - startCpu;
      } catch {
        // gone: keep the samples
      }
      return { cpuSeconds: used, cpuCores: seconds > 0 ? used / seconds : 0, peakRssBytes: peak };
    },
  };
}
