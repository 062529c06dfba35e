import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IdleBackoffTimer } from './idle-backoff-timer.js';

describe('IdleBackoffTimer', () => {
  beforeEach(() => void vi.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => void vi.useRealTimers());

  /** A timer whose passes report `busy()` and record when they ran (ms since the start). */
  function recorder(busy: () => boolean = () => false) {
    const ranAt: number[] = [];
    const timer = new IdleBackoffTimer(
      async () => {
        ranAt.push(Date.now() - 1_000_000);
        return busy();
      },
      { baseMs: 100, maxIdleMs: 800 },
    );
    return { timer, ranAt };
  }

  it('doubles the wait while passes find nothing, up to the longest idle wait', async () => {
    const { timer, ranAt } = recorder();
    timer.start();
    await vi.advanceTimersByTimeAsync(4_000);
    timer.stop();
    expect(ranAt.slice(0, 7)).toEqual([100, 300, 700, 1_500, 2_300, 3_100, 3_900]);
  });

  it('keeps the base interval while passes find work, and backs off once they stop', async () => {
    let work = 3;
    const { timer, ranAt } = recorder(() => work-- > 0);
    timer.start();
    await vi.advanceTimersByTimeAsync(1_000);
    timer.stop();
    // three busy passes 100 ms apart, then an idle one (the wait doubles only after it)
    expect(ranAt).toEqual([100, 200, 300, 400, 600, 1_000]);
  });

  it('comes back to the base interval at once when reset', async () => {
    const { timer, ranAt } = recorder();
    timer.start();
    await vi.advanceTimersByTimeAsync(1_500); // passes at 100, 300, 700, 1500; the next is due at 2300
    timer.reset();
    await vi.advanceTimersByTimeAsync(300); // 1600, then idle again: 200 ms later
    timer.stop();
    expect(ranAt).toEqual([100, 300, 700, 1_500, 1_600, 1_800]);
  });

  it('runs a pass by the time something is known to be due, however idle it has been', async () => {
    const { timer, ranAt } = recorder();
    timer.start();
    await vi.advanceTimersByTimeAsync(1_500); // idle: the next pass is due at 2300
    timer.runBy(Date.now() + 50);
    timer.runBy(Date.now() + 400); // later than the first hint: changes nothing
    await vi.advanceTimersByTimeAsync(100);
    timer.stop();
    expect(ranAt).toEqual([100, 300, 700, 1_500, 1_550]);
  });

  it('keeps a hint given while a pass runs, and schedules by it when the pass ends', async () => {
    let timer!: IdleBackoffTimer;
    const ranAt: number[] = [];
    timer = new IdleBackoffTimer(
      async () => {
        ranAt.push(Date.now() - 1_000_000);
        if (ranAt.length === 4) timer.runBy(Date.now() + 30);
        return false;
      },
      { baseMs: 100, maxIdleMs: 800 },
    );
    timer.start();
    await vi.advanceTimersByTimeAsync(1_600);
    timer.stop();
    expect(ranAt.slice(0, 5)).toEqual([100, 300, 700, 1_500, 1_530]);
  });

  it('runs no pass after stop, and none while not started', async () => {
    const { timer, ranAt } = recorder();
    timer.runBy(Date.now() + 10);
    timer.reset();
    await vi.advanceTimersByTimeAsync(500);
    expect(ranAt).toEqual([]);
    timer.start();
    await vi.advanceTimersByTimeAsync(150);
    timer.stop();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(ranAt).toEqual([600]);
  });

  it('treats a pass that throws as idle and goes on', async () => {
    let calls = 0;
    const timer = new IdleBackoffTimer(
      async () => {
        calls++;
        throw new Error('database away');
      },
      { baseMs: 100, maxIdleMs: 200 },
    );
    timer.start();
    await vi.advanceTimersByTimeAsync(700);
    timer.stop();
    expect(calls).toBe(4); // 100, 300, 500, 700
    expect(timer.currentWaitMs).toBe(200);
  });
});
