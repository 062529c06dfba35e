import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuSeconds, meterProcess, memory, parseCpuSeconds, parseStatusBytes } from './proc-stats.js';

describe('parseCpuSeconds', () => {
  it('adds utime and stime (fields 14 and 15) even when the command name has spaces and parentheses', () => {
    const line = '4242 (node (worker) x) S 1 4242 4242 0 -1 4194560 1000 0 0 0 250 75 0 0 20 0 11 0 5000 1000000 9000 18446744073709551615';
    expect(parseCpuSeconds(line, 100)).toBe(3.25);
  });

  it('refuses a line it cannot read', () => {
    expect(() => parseCpuSeconds('garbage', 100)).toThrow(/unreadable/);
  });
});

describe('parseStatusBytes', () => {
  it('reads kB fields as bytes', () => {
    const status = 'Name:\tnode\nVmHWM:\t  123456 kB\nVmRSS:\t   65536 kB\n';
    expect(parseStatusBytes(status, 'VmHWM')).toBe(123456 * 1024);
    expect(parseStatusBytes(status, 'VmRSS')).toBe(64 * 1024 * 1024);
    expect(parseStatusBytes(status, 'VmSwap')).toBe(0);
  });
});

describe('reading a live process', () => {
  it('sees the CPU a busy child burns and its memory', async () => {
    const child = spawn(process.execPath, ['-e', 'const end = Date.now() + 400; while (Date.now() < end); setTimeout(() => {}, 2000)']);
    try {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const meter = meterProcess(child.pid!, 20);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const usage = meter.stop();
      expect(usage.cpuSeconds).toBeGreaterThan(0.2);
      expect(usage.peakRssBytes).toBeGreaterThan(10 * 1024 * 1024);
      expect(memory(child.pid!).rss).toBeGreaterThan(0);
      expect(cpuSeconds(child.pid!)).toBeGreaterThanOrEqual(usage.cpuSeconds);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
