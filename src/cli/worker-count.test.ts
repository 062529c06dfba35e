import { describe, expect, it } from 'vitest';
import { parseWorkers } from '../config/workers-setting.js';
import { cgroupCpus, resolveWorkers } from './worker-count.js';

describe('worker count', () => {
  it('reads a count or auto, and names the source of anything else', () => {
    expect(parseWorkers('2', '--workers')).toBe(2);
    expect(parseWorkers(4, 'server.workers')).toBe(4);
    expect(parseWorkers('auto', '--workers')).toBe('auto');
    for (const bad of ['0', '-1', 'two', '1.5', 1.5, 0, 1000, true, '']) {
      expect(() => parseWorkers(bad, '--workers')).toThrow('--workers must be a whole number from 1 to 256, or "auto"');
    }
  });

  it('reads cgroup v2 and v1 quotas, rounding down to at least one CPU', () => {
    expect(cgroupCpus('max 100000\n')).toBeUndefined();
    expect(cgroupCpus('200000 100000\n')).toBe(2);
    expect(cgroupCpus('150000 100000')).toBe(1);
    expect(cgroupCpus('50000 100000')).toBe(1);
    expect(cgroupCpus(undefined, { quotaUs: '-1\n', periodUs: '100000\n' })).toBeUndefined();
    expect(cgroupCpus(undefined, { quotaUs: '300000\n', periodUs: '100000\n' })).toBe(3);
    expect(cgroupCpus(undefined)).toBeUndefined();
  });

  it('auto takes the smaller of the cores seen and the cgroup quota', () => {
    expect(resolveWorkers('auto', { cores: 64, cgroupCpus: () => 2 })).toBe(2);
    expect(resolveWorkers('auto', { cores: 2, cgroupCpus: () => 8 })).toBe(2);
    expect(resolveWorkers('auto', { cores: 4, cgroupCpus: () => undefined })).toBe(4);
    expect(resolveWorkers(3, { cores: 1, cgroupCpus: () => 1 })).toBe(3);
  });
});
