import { describe, expect, it } from 'vitest';
import { DecodeSlots } from './decode-slots.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('DecodeSlots', () => {
  it('runs at most `size` jobs at once and starts the waiting ones in order as slots free', async () => {
    const slots = new DecodeSlots(2);
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    let peak = 0;
    const jobs = gates.map((gate, i) =>
      slots.run(async () => {
        started.push(i);
        peak = Math.max(peak, slots.active);
        await gate.promise;
        return i;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    expect(slots.queued).toBe(2);
    gates[1].resolve();
    await jobs[1];
    await Promise.resolve();
    expect(started).toEqual([0, 1, 2]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(jobs)).toEqual([0, 1, 2, 3]);
    expect(peak).toBe(2);
    expect([slots.active, slots.queued]).toEqual([0, 0]);
  });

  it('frees the slot when the work fails', async () => {
    const slots = new DecodeSlots(1);
    await expect(slots.run(async () => Promise.reject(new Error('bad image')))).rejects.toThrow('bad image');
    expect(await slots.run(async () => 'next')).toBe('next');
  });

  it('drops a waiter whose signal aborts, without running its work', async () => {
    const slots = new DecodeSlots(1);
    const gate = deferred();
    const first = slots.run(() => gate.promise);
    const controller = new AbortController();
    let ran = false;
    const waiting = slots.run(async () => {
      ran = true;
    }, controller.signal);
    controller.abort(new Error('client went away'));
    await expect(waiting).rejects.toThrow('client went away');
    expect(slots.queued).toBe(0);
    gate.resolve();
    await first;
    expect(ran).toBe(false);
    expect(slots.active).toBe(0);
  });
});
