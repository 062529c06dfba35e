import { describe, expect, it } from 'vitest';
import type { TaskObservation } from '../core/task.js';
import type { StoredTask } from '../store/tasks-repository.js';
import { settlementOf } from './task-finisher.js';

/** Only what the settlement reads of a task. */
function task(operation: 'image.generate' | 'video.generate', request: { count?: number; seconds?: number }, priceNusd: number): StoredTask {
  return { operation, request: { model: 'm', prompt: 'p', ...request }, priceNusd } as unknown as StoredTask;
}

const done = (seconds?: number): TaskObservation => ({ status: 'succeeded', vendorStatus: 'done', usage: seconds === undefined ? undefined : { seconds } });

describe('what a finished task is charged, in nUSD', () => {
  it('charges images produced at their share of the price, all of it when all were made, never more', () => {
    // Three images at $0.003: 9,000,000 nUSD reserved.
    const threeImages = task('image.generate', { count: 3 }, 9_000_000);
    expect(settlementOf(threeImages, 3, done())).toEqual({ units: 3, amount: 9_000_000 });
    expect(settlementOf(threeImages, 2, done())).toEqual({ units: 2, amount: 6_000_000 });
    expect(settlementOf(threeImages, 0, done())).toEqual({ units: 0, amount: 0 });
    expect(settlementOf(threeImages, 5, done()).amount).toBe(9_000_000);
  });

  it('rounds a share that is not a whole nUSD once, half up, and stays an integer', () => {
    // 10 nUSD for three images, two made: 6.67 → 7; 7 nUSD for three seconds, one reported: 2.33 → 2.
    expect(settlementOf(task('image.generate', { count: 3 }, 10), 2, done()).amount).toBe(7);
    expect(settlementOf(task('video.generate', { seconds: 3 }, 7), 0, done(1)).amount).toBe(2);
  });

  it('charges video by the seconds the vendor reports, up to the seconds reserved', () => {
    // Five seconds at $0.10: 500,000,000 nUSD reserved.
    const fiveSeconds = task('video.generate', { seconds: 5 }, 500_000_000);
    expect(settlementOf(fiveSeconds, 1, done(4.5))).toEqual({ units: 4.5, amount: 450_000_000 });
    expect(settlementOf(fiveSeconds, 1, done(8)).amount).toBe(500_000_000);
    expect(settlementOf(fiveSeconds, 1, done())).toEqual({ units: 5, amount: 500_000_000 });
  });
});
