import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageRow } from '../../src/store/usage-repository.js';
import { DAY_MS } from '../../src/store/usage-rollup.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { AdminClient, signedInClient } from './admin-client.js';

const MASTER = 'gg-master-test-key-0123456789';
const DAY0 = 19_700 * DAY_MS;
const WINDOW = `from=${DAY0}&to=${DAY0 + DAY_MS}`;
const PER_MINUTE = 'key requests per minute (1)';
const BUDGET = 'account monthly budget of $5.00';

let next = 0;
function refused(accountId: string | null, keyId: string, refusal: string | null, outcome: string): UsageRow {
  next += 1;
  return {
    request_id: `refusals-route-${next}`,
    key_id: keyId,
    account_id: accountId,
    surface: 'openai',
    operation: 'chat',
    model: 'm1',
    channel: '',
    provider: '',
    upstream_model: '',
    outcome,
    stream: 0,
    input_tokens: 0,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    units: 0,
    cost_nusd: 0,
    latency_ms: 1,
    created_at: DAY0 + next,
    refusal,
  };
}

describe('admin API: usage refusals', () => {
  let running: RunningGateway;
  let member: AdminClient & { accountId: string };
  let other: AdminClient & { accountId: string };
  let admin: AdminClient;

  beforeAll(async () => {
    running = await startGateway({ masterKey: MASTER });
    member = await signedInClient(running, 'refusals-member@example.com', 'member');
    other = await signedInClient(running, 'refusals-other@example.com', 'member');
    admin = new AdminClient(running.url, MASTER);
    await running.gateway.usage.insertMany([
      refused(member.accountId, 'key-m', PER_MINUTE, 'rate_limit'),
      refused(member.accountId, 'key-m', PER_MINUTE, 'rate_limit'),
      refused(other.accountId, 'key-o', BUDGET, 'insufficient_quota'),
      refused(member.accountId, 'key-m', null, 'ok'),
    ]);
  });
  afterAll(() => running.close());

  it('gives an admin every refusal counted by reason, and narrows to a key or an account', async () => {
    const all = await admin.call('GET', `/usage/refusals?${WINDOW}`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      refusals: [
        { reason: PER_MINUTE, outcome: 'rate_limit', count: 2 },
        { reason: BUDGET, outcome: 'insufficient_quota', count: 1 },
      ],
      from: DAY0,
      to: DAY0 + DAY_MS,
    });
    const byKey = await admin.call('GET', `/usage/refusals?${WINDOW}&keyId=key-o`);
    expect(byKey.body.refusals).toEqual([{ reason: BUDGET, outcome: 'insufficient_quota', count: 1 }]);
    const byAccount = await admin.call('GET', `/usage/refusals?${WINDOW}&accountId=${member.accountId}`);
    expect(byAccount.body.refusals).toEqual([{ reason: PER_MINUTE, outcome: 'rate_limit', count: 2 }]);
    // No window given: the last 30 days up to now, which these rows (from 2023) are not in.
    const recent = await admin.call('GET', '/usage/refusals');
    expect(recent.status).toBe(200);
    expect(recent.body.to - recent.body.from).toBe(30 * DAY_MS);
    expect(recent.body.to).toBeGreaterThan(Date.now() - 60_000);
    expect(recent.body.refusals).toEqual([]);
  });

  it('shows a member only their own account’s refusals, whatever they ask for', async () => {
    const own = await member.call('GET', `/usage/refusals?${WINDOW}`);
    expect(own.body.refusals).toEqual([{ reason: PER_MINUTE, outcome: 'rate_limit', count: 2 }]);
    const sneaky = await member.call('GET', `/usage/refusals?${WINDOW}&accountId=${other.accountId}`);
    expect(sneaky.body.refusals).toEqual([]);
    const otherKey = await member.call('GET', `/usage/refusals?${WINDOW}&keyId=key-o`);
    expect(otherKey.body.refusals).toEqual([]);
  });

  it('answers a bad window with a 400 in the admin error shape, and strangers with 401', async () => {
    for (const query of [`from=${DAY0}&to=${DAY0 + 32 * DAY_MS}`, `from=${DAY0}&to=${DAY0 - 1}`, 'from=abc', 'color=red']) {
      const answer = await admin.call('GET', `/usage/refusals?${query}`);
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
      expect(answer.body.error).toEqual({ code: expect.any(String), message: expect.any(String), requestId: expect.any(String) });
    }
    const stranger = await new AdminClient(running.url).call('GET', `/usage/refusals?${WINDOW}`);
    expect(stranger.status).toBe(401);
  });
});
