import { describe, expect, it } from 'vitest';
import { LeaseHeartbeat } from './lease-heartbeat.js';

describe('LeaseHeartbeat', () => {
  it('renews every held id in one call per beat, until each is dropped as often as held', async () => {
    const calls: Array<{ ids: string[]; until: number }> = [];
    const heartbeat = new LeaseHeartbeat(async (ids, until) => void calls.push({ ids, until }), 30_000);
    await heartbeat.beat();
    expect(calls).toEqual([]);
    heartbeat.hold('a');
    heartbeat.hold('b');
    heartbeat.hold('a');
    const before = Date.now();
    await heartbeat.beat();
    expect(calls).toHaveLength(1);
    expect(calls[0].ids.sort()).toEqual(['a', 'b']);
    expect(calls[0].until).toBeGreaterThanOrEqual(before + 30_000);
    heartbeat.drop('a');
    heartbeat.drop('b');
    await heartbeat.beat();
    expect(calls[1].ids).toEqual(['a']);
    heartbeat.drop('a');
    expect(heartbeat.size).toBe(0);
  });

  it('keeps beating after a failed renewal', async () => {
    let calls = 0;
    const heartbeat = new LeaseHeartbeat(async () => {
      calls++;
      if (calls === 1) throw new Error('database away');
    }, 90);
    heartbeat.hold('a');
    heartbeat.start();
    // Beats every 50 ms; a loaded host may run the timer late, so wait for the second beat (up to 10 s), not a fixed time.
    const until = Date.now() + 10_000;
    while (calls < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    heartbeat.stop();
    expect(calls).toBeGreaterThanOrEqual(2);
  });
});
