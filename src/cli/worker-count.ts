/**
 * How many worker processes `gengate start` runs: a whole number, or `auto` — the cores this
 * process may use, which is the smaller of the cores it sees and its cgroup's CPU quota (a
 * container given 2 CPUs on a 64-core host gets 2 workers, not 64).
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import type { WorkersSetting } from '../config/workers-setting.js';

/**
 * The CPUs a cgroup quota allows, rounded down (at least 1); undefined without a quota. `cpuMax`
 * is cgroup v2's `cpu.max` ("<quota> <period>" or "max <period>"); `cfs` cgroup v1's quota and period.
 */
export function cgroupCpus(cpuMax: string | undefined, cfs?: { quotaUs: string; periodUs: string }): number | undefined {
  let quota: number;
  let period: number;
  if (cpuMax !== undefined) {
    const [q, p] = cpuMax.trim().split(/\s+/);
    if (q === 'max') return undefined;
    quota = Number(q);
    period = Number(p ?? 100_000);
  } else if (cfs) {
    quota = Number(cfs.quotaUs.trim());
    period = Number(cfs.periodUs.trim());
  } else return undefined;
  if (!Number.isFinite(quota) || !Number.isFinite(period) || quota <= 0 || period <= 0) return undefined;
  return Math.max(1, Math.floor(quota / period));
}

function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** This machine's cgroup quota in CPUs, if any (v2 first, then v1). */
function readCgroupCpus(): number | undefined {
  const v2 = readOptional('/sys/fs/cgroup/cpu.max');
  if (v2 !== undefined) return cgroupCpus(v2);
  const quotaUs = readOptional('/sys/fs/cgroup/cpu/cpu.cfs_quota_us');
  const periodUs = readOptional('/sys/fs/cgroup/cpu/cpu.cfs_period_us');
  return quotaUs !== undefined && periodUs !== undefined ? cgroupCpus(undefined, { quotaUs, periodUs }) : undefined;
}

export function resolveWorkers(setting: WorkersSetting, machine = { cores: availableParallelism(), cgroupCpus: readCgroupCpus }): number {
  if (setting !== 'auto') return setting;
  const quota = machine.cgroupCpus();
  return Math.max(1, quota === undefined ? machine.cores : Math.min(machine.cores, quota));
}
