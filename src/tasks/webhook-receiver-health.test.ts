import { describe, expect, it } from 'vitest';
import { receiverKey, type ReceiverHealthSettings, WebhookReceiverHealth } from './webhook-receiver-health.js';

const SETTINGS: ReceiverHealthSettings = {
  timeoutMs: 10_000,
  slowTimeoutMs: 2_000,
  slowAfterTimeouts: 3,
  circuitFailures: 5,
  circuitCooldownMs: 30_000,
  maxCooldownMs: 100_000,
  maxReceivers: 100,
};
const T0 = 1_750_000_000_000;
const A = receiverKey('key_a', 'hooks.example:443');

describe('finding 3: webhook receiver health', () => {
  it('shortens the timeout after three timeouts in a row, and any answer restores it', () => {
    const health = new WebhookReceiverHealth(SETTINGS);
    expect(health.admit(A, T0)).toEqual({ send: true, timeoutMs: 10_000 });
    health.record(A, 'timed-out', T0);
    health.record(A, 'timed-out', T0);
    expect(health.admit(A, T0)).toEqual({ send: true, timeoutMs: 10_000 });
    health.record(A, 'timed-out', T0);
    expect(health.admit(A, T0)).toEqual({ send: true, timeoutMs: 2_000 });
    // Unreachable says nothing about answering slowly: still short.
    health.record(A, 'unreachable', T0);
    expect(health.admit(A, T0)).toEqual({ send: true, timeoutMs: 2_000 });
    health.record(A, 'delivered', T0);
    expect(health.admit(A, T0)).toEqual({ send: true, timeoutMs: 10_000 });

    for (let i = 0; i < 3; i++) health.record(A, 'timed-out', T0);
    health.record(A, 'answered-error', T0);
    expect(health.admit(A, T0)).toEqual({ send: true, timeoutMs: 10_000 });
  });

  it('opens the circuit after five failures in a row: deliveries wait for the cooldown without connecting', () => {
    const health = new WebhookReceiverHealth(SETTINGS);
    const opened = ['answered-error', 'unreachable', 'timed-out', 'answered-error'].map((verdict) => health.record(A, verdict as 'timed-out', T0));
    expect(opened).toEqual([false, false, false, false]);
    expect(health.admit(A, T0).send).toBe(true);
    expect(health.record(A, 'timed-out', T0 + 5)).toBe(true);
    expect(health.admit(A, T0 + 10)).toEqual({ send: false, retryAt: T0 + 5 + 30_000 });
    // Attempts that were already in flight and fail too neither extend it nor report it again.
    expect(health.record(A, 'timed-out', T0 + 1_000)).toBe(false);
    expect(health.admit(A, T0 + 29_000)).toEqual({ send: false, retryAt: T0 + 5 + 30_000 });
  });

  it('lets one trial through after the cooldown; a failed trial doubles it (up to the bound), a good one closes the circuit', () => {
    const health = new WebhookReceiverHealth(SETTINGS);
    for (let i = 0; i < 5; i++) health.record(A, 'unreachable', T0);
    let now = T0 + 30_000;
    expect(health.admit(A, now)).toEqual({ send: true, timeoutMs: 10_000 });
    // While the trial is out, the others wait.
    expect(health.admit(A, now + 1)).toEqual({ send: false, retryAt: now + 1 + 30_000 });
    health.record(A, 'unreachable', now);
    expect(health.admit(A, now + 1)).toEqual({ send: false, retryAt: now + 60_000 });

    now += 60_000;
    expect(health.admit(A, now).send).toBe(true);
    health.record(A, 'unreachable', now);
    expect(health.admit(A, now)).toEqual({ send: false, retryAt: now + 100_000 });
    now += 100_000;
    expect(health.admit(A, now).send).toBe(true);
    health.record(A, 'unreachable', now);
    expect(health.admit(A, now)).toEqual({ send: false, retryAt: now + 100_000 });

    now += 100_000;
    expect(health.admit(A, now).send).toBe(true);
    health.record(A, 'delivered', now);
    expect(health.admit(A, now)).toEqual({ send: true, timeoutMs: 10_000 });
    expect(health.admit(A, now)).toEqual({ send: true, timeoutMs: 10_000 });
  });

  it('a trial that ends with nothing learnt lets the next delivery be the trial', () => {
    const health = new WebhookReceiverHealth(SETTINGS);
    for (let i = 0; i < 5; i++) health.record(A, 'unreachable', T0);
    expect(health.admit(A, T0 + 30_000).send).toBe(true);
    expect(health.admit(A, T0 + 30_000).send).toBe(false);
    health.release(A);
    expect(health.admit(A, T0 + 30_000).send).toBe(true);
  });

  it("keeps owners apart at a shared host: one owner's failures never open another's circuit", () => {
    const health = new WebhookReceiverHealth(SETTINGS);
    const B = receiverKey('key_b', 'hooks.example:443');
    for (let i = 0; i < 5; i++) health.record(A, 'timed-out', T0);
    expect(health.admit(A, T0).send).toBe(false);
    expect(health.admit(B, T0)).toEqual({ send: true, timeoutMs: 10_000 });
  });

  it('remembers at most maxReceivers, forgetting the least recently seen', () => {
    const health = new WebhookReceiverHealth({ ...SETTINGS, maxReceivers: 3 });
    const failing = (n: number) => receiverKey('key', `host${n}`);
    for (let n = 0; n < 3; n++) for (let i = 0; i < 5; i++) health.record(failing(n), 'unreachable', T0);
    // host0 is seen again, so host1 is the least recently seen when host3 arrives.
    expect(health.admit(failing(0), T0).send).toBe(false);
    health.record(failing(3), 'unreachable', T0);
    expect(health.admit(failing(1), T0).send).toBe(true);
    expect(health.admit(failing(0), T0).send).toBe(false);
    expect(health.admit(failing(2), T0).send).toBe(false);
  });
});
