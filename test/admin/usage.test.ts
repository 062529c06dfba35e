import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UsageRow } from '../../src/store/usage-repository.js';
import { DAY_MS } from '../../src/store/usage-rollup.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { AdminClient, signedInClient } from './admin-client.js';

const MASTER = 'gg-master-test-key-0123456789';
const DAY0 = 19_700 * DAY_MS;
const RANGE = `from=${DAY0}&to=${DAY0 + DAY_MS - 1}`;

function row(id: number, accountId: string | null, overrides: Partial<UsageRow> = {}): UsageRow {
  return {
    request_id: `usage-test-${id}`,
    key_id: `key-of-${accountId ?? 'operator'}`,
    account_id: accountId,
    surface: 'openai',
    operation: 'chat',
    model: 'm1',
    channel: 'c1',
    provider: 'p',
    upstream_model: 'u',
    outcome: 'ok',
    stream: 0,
    input_tokens: 10,
    output_tokens: 2,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    units: 0,
    cost_nusd: 10_000_000,
    latency_ms: 50,
    created_at: DAY0 + id,
    ...overrides,
  };
}

describe('admin API: usage', () => {
  let running: RunningGateway;
  let member: AdminClient & { accountId: string };
  let admin: AdminClient;

  beforeAll(async () => {
    running = await startGateway({ masterKey: MASTER });
    member = await signedInClient(running, 'usage-member@example.com', 'member');
    const other = await signedInClient(running, 'usage-other@example.com', 'member');
    admin = new AdminClient(running.url, MASTER);
    const rows = [
      ...Array.from({ length: 3 }, (_, i) => row(i, member.accountId)),
      ...Array.from({ length: 5 }, (_, i) => row(10 + i, other.accountId, { model: '=HYPERLINK("x")' })),
      row(20, null, { outcome: 'upstream' }),
    ];
    await running.gateway.usage.insertMany(rows);
  });
  afterAll(() => running.close());

  it('gives an admin every account’s usage, grouped as asked, with totals', async () => {
    const byAccount = await admin.call('GET', `/usage?${RANGE}&groupBy=account`);
    expect(byAccount.status).toBe(200);
    expect(byAccount.body.totals).toMatchObject({ requests: 9, errors: 1, inputTokens: 90, outputTokens: 18 });
    expect(byAccount.body.rows.map((r: { label: string; requests: number }) => [r.label, r.requests])).toEqual([
      ['usage-other@example.com', 5],
      ['usage-member@example.com', 3],
      ['(no account)', 1],
    ]);
    expect(byAccount.body.rows[0].latencyMs.p50).toBeGreaterThan(40);
    const byDay = await admin.call('GET', `/usage?${RANGE}`);
    expect(byDay.body.rows).toEqual([expect.objectContaining({ group: '2023-12-09', requests: 9 })]);
  });

  it('limits a member to their own account, whatever filter they send', async () => {
    const own = await member.call('GET', `/usage?${RANGE}&groupBy=model`);
    expect(own.status).toBe(200);
    expect(own.body.totals.requests).toBe(3);
    expect(own.body.rows.map((r: { group: string }) => r.group)).toEqual(['m1']);
    const sneaky = await member.call('GET', `/usage?${RANGE}&groupBy=account&account=${encodeURIComponent('x')}`);
    expect(sneaky.body.totals.requests).toBe(0);
    const records = await member.call('GET', '/usage/records?limit=200');
    expect(records.body.data.map((r: { requestId: string }) => r.requestId)).toEqual(['usage-test-2', 'usage-test-1', 'usage-test-0']);
    const csv = await member.call('GET', `/usage.csv?${RANGE}&groupBy=account`);
    expect(csv.body).not.toContain('usage-other');
  });

  it('exports CSV with formula-looking text defused', async () => {
    const csv = await admin.call('GET', `/usage.csv?${RANGE}&groupBy=model`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="usage-2023-12-09-to-2023-12-09-by-model.csv"');
    const lines = csv.body.split('\r\n');
    expect(lines[0].startsWith('group,label,requests,errors,')).toBe(true);
    expect(lines[1].startsWith(`"'=HYPERLINK(""x"")","'=HYPERLINK(""x"")",5,0,`)).toBe(true);
    expect(lines.at(-2).startsWith('total,Total,9,1,')).toBe(true);
  });

  it('pages raw records with an opaque cursor', async () => {
    const first = await admin.call('GET', '/usage/records?limit=4');
    expect(first.body.data).toHaveLength(4);
    expect(first.body.data[0]).toMatchObject({ requestId: 'usage-test-20', accountId: null, outcome: 'upstream' });
    const second = await admin.call('GET', `/usage/records?limit=200&cursor=${first.body.nextCursor}`);
    expect(second.body.data).toHaveLength(5);
    expect(second.body.nextCursor).toBeNull();
  });

  it('answers bad parameters with a 400 in the admin error shape, and strangers with 401', async () => {
    for (const query of [
      `/usage?groupBy=week`,
      `/usage?from=-5`,
      `/usage?from=abc`,
      `/usage?from=${DAY0}&to=${DAY0 - 1}`,
      `/usage?from=0&to=${400 * DAY_MS}`,
      `/usage?model=${'x'.repeat(201)}`,
      `/usage?colour=blue`,
      '/usage/records?limit=0',
      '/usage/records?limit=201',
      '/usage/records?cursor=not-ours',
      '/usage.csv?groupBy=nope',
    ]) {
      const answer = await admin.call('GET', query);
      expect({ query, status: answer.status }).toEqual({ query, status: 400 });
      expect(answer.body.error).toEqual({ code: expect.any(String), message: expect.any(String), requestId: expect.any(String) });
    }
    expect((await new AdminClient(running.url).call('GET', '/usage')).status).toBe(401);
  });

  it('lists the usage routes in the OpenAPI document', async () => {
    const doc = await admin.call('GET', '/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/admin/v1/usage', '/admin/v1/usage.csv', '/admin/v1/usage/records']));
  });
});
