import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeCounterStore, StaticRuleSource } from '../../test/helpers/fake-counter-store.js';
import { openLimits } from '../limits/open-limits.js';
import type { Call } from './call-lifecycle.js';
import { limitsHooks } from './limits-hooks.js';

const fakeCall = (requestId: string, taskReservation?: { id: string; amountNusd: number; leaseMs: number }) =>
  ({ subject: { requestId, key: { id: 'k1', accountId: null }, model: 'm', taskReservation } }) as unknown as Call;

afterEach(() => {
  vi.useRealTimers();
});

describe('limits hooks', () => {
  it('do nothing while no rule exists', async () => {
    const counters = new FakeCounterStore();
    const hooks = limitsHooks(openLimits({ rules: new StaticRuleSource(), counters, priceOf: () => undefined }));
    expect(hooks.admit?.(fakeCall('r1'))).toBeUndefined();
    expect(counters.admits).toHaveLength(0);
  });

  it('renew the holds of calls in flight every third of the lease, not those of ended calls or tasks', async () => {
    vi.useFakeTimers();
    const counters = new FakeCounterStore();
    const renew = vi.spyOn(counters, 'renew');
    const rules = new StaticRuleSource({ limits: [{ scope: 'key', subject: 'k1', kind: 'concurrent_requests', limit: 5 }] });
    const hooks = limitsHooks(openLimits({ rules, counters, priceOf: () => undefined, settings: { leaseMs: 3_000 } }));
    const running = fakeCall('r1');
    const ended = fakeCall('r2');
    const task = fakeCall('r3', { id: 'task_1', amountNusd: 0, leaseMs: 60_000 });
    for (const call of [running, ended, task]) await hooks.admit?.(call);
    hooks.end?.(ended, { outcome: 'ok', units: 0, costNusd: 0, latencyMs: 1, usage: { inputTokens: 1, outputTokens: 1 } });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(renew.mock.calls[0][0]).toEqual(['r1']);
    expect(renew.mock.calls[0][1]).toBe(3_000);
    hooks.stop();
  });

  it('release a call that ended before any upstream answered, settle one that did', async () => {
    const counters = new FakeCounterStore();
    const release = vi.spyOn(counters, 'release');
    const settle = vi.spyOn(counters, 'settle');
    const rules = new StaticRuleSource({ limits: [{ scope: 'key', subject: 'k1', kind: 'concurrent_requests', limit: 5 }] });
    const hooks = limitsHooks(openLimits({ rules, counters, priceOf: () => undefined }));
    const failed = fakeCall('r1');
    const answered = fakeCall('r2');
    await hooks.admit?.(failed);
    await hooks.admit?.(answered);
    hooks.end?.(failed, { outcome: 'upstream', units: 0, costNusd: 0, latencyMs: 1 });
    hooks.end?.(answered, { outcome: 'client_closed', units: 0, costNusd: 7, latencyMs: 1, usage: { inputTokens: 3, outputTokens: 2 } });
    await vi.waitFor(() => expect(settle).toHaveBeenCalled());
    expect(release.mock.calls.map((call) => call[0])).toEqual(['r1']);
    expect(settle.mock.calls.map((call) => call[0])).toEqual(['r2']);
    expect(counters.openReservations).toEqual([]);
    hooks.stop();
  });
});
