import { describe, expect, it } from 'vitest';
import { AttemptDeadline } from './attempt-deadline.js';

describe('AttemptDeadline', () => {
  it('cuts sleeps short at the deadline and then reports a retryable timeout', async () => {
    const deadline = new AttemptDeadline(50);
    const started = Date.now();
    await deadline.sleep(1_000, new AbortController().signal);
    expect(Date.now() - started).toBeLessThan(500);
    expect(deadline.expired()).toBe(true);
    expect(deadline.timeoutError('the job')).toMatchObject({ kind: 'timeout', retryable: true, message: 'the job did not finish within 50 ms' });
  });

  it('rejects a sleep when the client goes away', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const error = await new AttemptDeadline(5_000).sleep(1_000, controller.signal).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'upstream', code: 'client_closed', retryable: false });
  });
});
