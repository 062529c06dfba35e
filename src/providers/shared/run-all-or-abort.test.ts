import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { AttemptDeadline } from './attempt-deadline.js';
import { runAllOrAbort } from './run-all-or-abort.js';

describe('runAllOrAbort', () => {
  it('resolves every job in index order', async () => {
    const values = await runAllOrAbort(3, new AbortController().signal, async (index) => {
      await delay(30 - index * 10);
      return index * 10;
    });
    expect(values).toEqual([0, 10, 20]);
  });

  it('aborts the other jobs with the first failure and waits for them to settle', async () => {
    const failure = new GatewayError('invalid_request', 'moderated');
    const seen: unknown[] = [];
    const deadline = new AttemptDeadline(5_000);
    const error = await runAllOrAbort(3, new AbortController().signal, async (index, signal) => {
      if (index === 1) {
        await delay(20);
        throw failure;
      }
      try {
        await deadline.sleep(2_000, signal);
        return index;
      } catch (reason) {
        seen.push(reason);
        throw reason;
      }
    }).catch((e: unknown) => e);
    expect(error).toBe(failure);
    expect(seen).toEqual([failure, failure]);
  });
});
