import { describe, expect, it } from 'vitest';
import { abortCall, callAbort, onAbort } from './call-abort.js';

describe('callAbort', () => {
  it('runs the listeners still registered, once, after the signal shows aborted with its reason', () => {
    const call = callAbort();
    const seen: string[] = [];
    onAbort(call.signal, () => seen.push(`first ${call.signal.aborted} ${String(call.signal.reason)}`));
    const off = onAbort(call.signal, () => seen.push('removed'));
    off();
    call.abort('gone');
    call.abort('again');
    expect(seen).toEqual(['first true gone']);
  });

  it('still fires ordinary abort listeners on its signal', () => {
    const call = callAbort();
    let events = 0;
    call.signal.addEventListener('abort', () => events++);
    call.abort();
    expect(events).toBe(1);
  });

  it('listens on any other signal through its event', () => {
    const controller = new AbortController();
    let calls = 0;
    onAbort(controller.signal, () => calls++);
    controller.abort();
    expect(calls).toBe(1);
    const other = new AbortController();
    onAbort(other.signal, () => calls++)();
    other.abort();
    expect(calls).toBe(1);
  });

  it('aborts a call held only by its signal, with the reason given; never a signal it did not make', () => {
    const call = callAbort();
    const seen: unknown[] = [];
    onAbort(call.signal, () => seen.push(call.signal.reason));
    expect(abortCall(call.signal, 'revoked')).toBe(true);
    expect(seen).toEqual(['revoked']);
    expect(abortCall(call.signal, 'again')).toBe(false);
    expect(call.signal.reason).toBe('revoked');
    expect(abortCall(new AbortController().signal, 'x')).toBe(false);
  });
});
