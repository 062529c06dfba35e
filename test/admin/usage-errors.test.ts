import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorType } from '../../src/core/error-type.js';
import type { UsageRow } from '../../src/store/usage-repository.js';
import { DAY_MS } from '../../src/store/usage-rollup.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { AdminClient, signedInClient } from './admin-client.js';

const MASTER = 'gg-master-test-key-0123456789';
const DAY0 = 19_710 * DAY_MS;
const WINDOW = `from=${DAY0}&to=${DAY0 + DAY_MS}`;

let next = 0;
function ended(accountId: string | null, keyId: string, outcome: string, errorType: ErrorType | null, model = 'm1'): UsageRow {
  next += 1;
  return {
    request_id: `errors-route-${next}`,
    key_id: keyId,
    account_id: accountId,
    surface: 'openai',
    operation: 'chat',
    model,
    channel: 'c1',
    provider: 'openai',
    upstream_model: model,
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
    error_type: errorType,
  };
}

describe('admin API: usage by error type', () => {
  let running: RunningGateway;
  let member: AdminClient & { accountId: string };
  let other: AdminClient & { accountId: string };
  let admin: AdminClient;

  beforeAll(async () => {
    running = await startGateway({ masterKey: MASTER });
    member = await signedInClient(running, 'errors-member@example.com', 'member');
    other = await signedInClient(running, 'errors-other@example.com', 'member');
    admin = new AdminClient(running.url, MASTER);
    await running.gateway.usage.insertMany([
      ended(member.accountId, 'key-m', 'timeout', 'upstream.timeout'),
      ended(member.accountId, 'key-m', 'timeout', 'upstream.timeout', 'm2'),
      ended(member.accountId, 'key-m', 'rate_limit', 'upstream.rate_limited'),
      ended(other.accountId, 'key-o', 'invalid_request', 'client.invalid_request'),
      ended(member.accountId, 'key-m', 'ok', null),
    ]);
  });
  afterAll(() => running.close());

  it('counts failures by error type, most frequent first, narrowed by key, model or account', async () => {
    const all = await admin.call('GET', `/usage/errors?${WINDOW}`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      errors: [
        { errorType: 'upstream.timeout', count: 2 },
        { errorType: 'client.invalid_request', count: 1 },
        { errorType: 'upstream.rate_limited', count: 1 },
      ],
      from: DAY0,
      to: DAY0 + DAY_MS,
    });
    expect((await admin.call('GET', `/usage/errors?${WINDOW}&keyId=key-o`)).body.errors).toEqual([{ errorType: 'client.invalid_request', count: 1 }]);
    expect((await admin.call('GET', `/usage/errors?${WINDOW}&model=m2`)).body.errors).toEqual([{ errorType: 'upstream.timeout', count: 1 }]);
    const byAccount = await admin.call('GET', `/usage/errors?${WINDOW}&accountId=${other.accountId}`);
    expect(byAccount.body.errors).toEqual([{ errorType: 'client.invalid_request', count: 1 }]);
  });

  it('lists raw rows with their error type, and filters them by it', async () => {
    const page = await admin.call('GET', '/usage/records?limit=10&key=key-m');
    expect(page.status).toBe(200);
    expect(page.body.data.map((row: { outcome: string; errorType: string | null }) => [row.outcome, row.errorType])).toEqual([
      ['ok', null],
      ['rate_limit', 'upstream.rate_limited'],
      ['timeout', 'upstream.timeout'],
      ['timeout', 'upstream.timeout'],
    ]);
    const timeouts = await admin.call('GET', '/usage/records?limit=10&errorType=upstream.timeout');
    expect(timeouts.body.data).toHaveLength(2);
    expect(timeouts.body.data.every((row: { errorType: string }) => row.errorType === 'upstream.timeout')).toBe(true);
  });

  it('shows a member only their own account’s failures', async () => {
    const own = await member.call('GET', `/usage/errors?${WINDOW}&accountId=${other.accountId}`);
    expect(own.body.errors).toEqual([]);
    const mine = await member.call('GET', `/usage/errors?${WINDOW}`);
    expect(mine.body.errors.map((entry: { errorType: string }) => entry.errorType)).toEqual(['upstream.timeout', 'upstream.rate_limited']);
    const records = await member.call('GET', '/usage/records?limit=10&errorType=client.invalid_request');
    expect(records.body.data).toEqual([]);
  });

  it('refuses an error type outside the vocabulary and a bad window with a 400 in the admin shape', async () => {
    for (const path of ['/usage/records?errorType=client.whatever', `/usage/errors?from=${DAY0}&to=${DAY0 + 32 * DAY_MS}`, '/usage/errors?color=red']) {
      const answer = await admin.call('GET', path);
      expect({ path, status: answer.status }).toEqual({ path, status: 400 });
      expect(answer.body.error).toEqual({ code: expect.any(String), message: expect.any(String), requestId: expect.any(String) });
    }
  });
});
