import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/errors.js';
import { StoredResponsesCap } from './stored-responses-cap.js';

describe('StoredResponsesCap', () => {
  it('refuses once the owner keeps the cap, counting its saves between reads, and rereads after the window', async () => {
    let now = 0;
    const stored = new Map([['acct-a', 900]]);
    let reads = 0;
    const cap = new StoredResponsesCap(
      1000,
      async (owner) => {
        reads++;
        return stored.get(owner) ?? 0;
      },
      () => now,
    );
    await cap.check('acct-a');
    cap.saved('acct-a', 150);
    const refused = await cap.check('acct-a').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(GatewayError);
    expect(refused).toMatchObject({ status: 400, param: 'store', code: 'stored_responses_limit_reached' });
    expect(reads).toBe(1);
    // Another account is not affected.
    await cap.check('acct-b');
    // The owner deleted responses: seen at the next read, ten seconds on.
    stored.set('acct-a', 100);
    now += 9_999;
    await expect(cap.check('acct-a')).rejects.toThrow(/stored responses/);
    now += 1;
    await cap.check('acct-a');
    expect(reads).toBe(3);
  });

  it('costs nothing without a cap', async () => {
    const cap = new StoredResponsesCap(0, async () => {
      throw new Error('read without a cap');
    });
    await cap.check('acct-a');
  });
});
