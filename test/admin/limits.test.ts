/**
 * Limits and budgets over the admin API: an admin sets, changes and removes rules (audited);
 * members read only their own account's and keys' rules and never set any; bad input is a 400
 * naming the field; standing reads each applying rule's counter through the counter store's
 * `peek` (a fake here, holding numbers the test chose) and says when there is none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodBounds } from '../../src/limits/budget-period.js';
import type { Hold, HoldState } from '../../src/limits/contract.js';
import { FakeCounterStore, StaticRuleSource } from '../helpers/fake-counter-store.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { AdminClient, signedInClient } from './admin-client.js';

const MASTER = 'gg-master-limits-test-0123456789';

/** Answers `peek` from `remaining`, by counter name (numbers the test chose); remembers what it was asked. */
class FakeCounters extends FakeCounterStore {
  remaining = new Map<string, number>();
  peeked: Hold[] = [];
  override async peek(holds: readonly Hold[], now: number): Promise<HoldState[]> {
    this.peeked.push(...holds);
    return holds.map((hold) => ({
      counter: hold.counter,
      type: hold.type,
      label: hold.label,
      limit: hold.type === 'spend' ? hold.limitNusd : hold.limit,
      remaining: this.remaining.get(hold.counter) ?? (hold.type === 'spend' ? hold.limitNusd : hold.limit),
      resetAt: now + 60_000,
    }));
  }
}

describe('admin API: limits and budgets', () => {
  let running: RunningGateway;
  let admin: AdminClient;
  const counters = new FakeCounters();
  beforeAll(async () => {
    // No rule in force for admission (the routes read the store); the counters answer standing.
    running = await startGateway({ masterKey: MASTER, admission: { rules: new StaticRuleSource(), counters } });
    admin = new AdminClient(running.url, MASTER);
  });
  afterAll(() => running.close());

  it('lets an admin set limits and a budget on a key and its account, and shows their standing from the counters', async () => {
    const member = await signedInClient(running, 'dana@example.com', 'member');
    const key = (await member.call('POST', '/keys', { name: 'app' })).body.key;

    const perKey = await admin.call('POST', '/limits', { scope: 'key', subject: key.id, kind: 'requests_per_minute', limit: 60 });
    expect(perKey.status).toBe(201);
    expect(perKey.body.rule).toMatchObject({ scope: 'key', subject: key.id, model: null, kind: 'requests_per_minute', limit: 60 });
    expect(perKey.body.rule.id).toMatch(/^lim_/);
    const perModel = await admin.call('POST', '/limits', { scope: 'model', model: 'textmodel-a-*', kind: 'concurrent_requests', limit: 5 });
    expect(perModel.status).toBe(201);
    expect(perModel.body.rule).toMatchObject({ subject: '', model: 'textmodel-a-*' });
    const budget = await admin.call('POST', '/budgets', { scope: 'account', subject: member.accountId, period: 'month', limitUsd: '25', softUsd: 20 });
    expect(budget.status).toBe(201);
    expect(budget.body.budget).toMatchObject({ limitNusd: 25_000_000_000, limitUsd: '25.00', softNusd: 20_000_000_000, timeZone: 'UTC', period: 'month' });

    counters.remaining.set(`lim:requests_per_minute:key:${key.id}:*`, 45);
    const now = Date.now();
    const { start } = periodBounds('month', 'UTC', now);
    counters.remaining.set(`bud:account:${member.accountId}:month:UTC:${start}`, 17_500_000_000);

    const standing = await admin.call('GET', `/limits/standing?keyId=${key.id}`);
    expect(standing.status).toBe(200);
    expect(standing.body).toMatchObject({ keyId: key.id, accountId: member.accountId, counters: 'live' });
    const keyRule = standing.body.limits.find((entry: { rule: { id: string } }) => entry.rule.id === perKey.body.rule.id);
    expect(keyRule).toMatchObject({ label: 'key requests per minute', used: 15, remaining: 45 });
    const modelRule = standing.body.limits.find((entry: { rule: { id: string } }) => entry.rule.id === perModel.body.rule.id);
    expect(modelRule).toMatchObject({ label: 'model concurrent requests', used: 0, remaining: 5 });
    expect(standing.body.budgets).toHaveLength(1);
    expect(standing.body.budgets[0]).toMatchObject({ label: 'account monthly budget', spentNusd: 7_500_000_000, remainingNusd: 17_500_000_000 });
    expect(standing.body.budgets[0].periodEnd).toBe(periodBounds('month', 'UTC', now).end);

    // The member sees their own rules and standing, but not the shared model counter's numbers.
    const own = await member.call('GET', `/limits/standing?keyId=${key.id}`);
    expect(own.status).toBe(200);
    const ownModelRule = own.body.limits.find((entry: { rule: { id: string } }) => entry.rule.id === perModel.body.rule.id);
    expect(ownModelRule).toMatchObject({ remaining: null, used: null });
    expect((await member.call('GET', '/limits')).body.data.map((r: { id: string }) => r.id)).toEqual([perKey.body.rule.id]);
    expect((await member.call('GET', '/budgets')).body.data.map((r: { id: string }) => r.id)).toEqual([budget.body.budget.id]);
    expect((await member.call('GET', `/budgets/${budget.body.budget.id}`)).status).toBe(200);

    const changed = await admin.call('PATCH', `/limits/${perKey.body.rule.id}`, { limit: 120 });
    expect(changed.body.rule.limit).toBe(120);
    const rebudgeted = await admin.call('PATCH', `/budgets/${budget.body.budget.id}`, { softUsd: null, timeZone: 'Europe/Paris' });
    expect(rebudgeted.body.budget).toMatchObject({ softNusd: null, timeZone: 'Europe/Paris', limitNusd: 25_000_000_000 });
    expect((await admin.call('DELETE', `/limits/${perKey.body.rule.id}`)).status).toBe(200);
    expect((await admin.call('GET', `/limits/${perKey.body.rule.id}`)).status).toBe(404);
    expect((await admin.call('DELETE', `/limits/${perKey.body.rule.id}`)).status).toBe(404);

    const audit = await admin.call('GET', '/audit?limit=200');
    const actions = audit.body.data
      .filter((entry: { target: string }) => [perKey.body.rule.id, budget.body.budget.id].includes(entry.target))
      .map((entry: { action: string }) => entry.action)
      .sort();
    expect(actions).toEqual(['budget.change', 'budget.create', 'limit.change', 'limit.create', 'limit.remove']);
  });

  it("keeps a member from setting rules and from another account's rules and standing (404)", async () => {
    const erin = await signedInClient(running, 'erin@example.com', 'member');
    const frank = await signedInClient(running, 'frank@example.com', 'member');
    const frankKey = (await frank.call('POST', '/keys', { name: 'f' })).body.key;
    const rule = (await admin.call('POST', '/limits', { scope: 'key', subject: frankKey.id, kind: 'tokens_per_minute', limit: 1000 })).body.rule;
    const budget = (await admin.call('POST', '/budgets', { scope: 'key', subject: frankKey.id, period: 'day', limitUsd: 1 })).body.budget;

    expect((await erin.call('GET', `/limits/${rule.id}`)).status).toBe(404);
    expect((await erin.call('GET', `/budgets/${budget.id}`)).status).toBe(404);
    expect((await erin.call('GET', `/limits?subject=${frankKey.id}`)).body.data).toEqual([]);
    expect((await erin.call('GET', `/budgets?subject=${frankKey.id}`)).body.data).toEqual([]);
    const standing = await erin.call('GET', `/limits/standing?keyId=${frankKey.id}`);
    expect(standing.status).toBe(404);
    expect(standing.body.error.code).toBe('not_found');
    expect((await erin.call('GET', `/limits/standing?accountId=${frank.accountId}`)).status).toBe(404);

    const set = await erin.call('POST', '/limits', { scope: 'account', subject: erin.accountId, kind: 'requests_per_minute', limit: 1_000_000 });
    expect(set.status).toBe(403);
    expect((await erin.call('PATCH', `/budgets/${budget.id}`, { limitUsd: 100 })).status).toBe(403);
    expect((await frank.call('DELETE', `/limits/${rule.id}`)).status).toBe(403);
    expect((await frank.call('GET', `/limits/${rule.id}`)).status).toBe(200);
  });

  it('refuses bad rules with a 400 that names the field, and a second rule for the same thing with a 409', async () => {
    const key = (await admin.call('POST', '/keys', { name: 'ops' })).body.key;
    const cases: Array<[string, object, string]> = [
      ['/limits', { scope: 'team', subject: key.id, kind: 'requests_per_minute', limit: 1 }, 'scope'],
      ['/limits', { scope: 'key', subject: key.id, kind: 'requests_per_hour', limit: 1 }, 'kind'],
      ['/limits', { scope: 'key', subject: key.id, kind: 'requests_per_minute', limit: 0 }, 'limit'],
      ['/limits', { scope: 'key', subject: key.id, kind: 'requests_per_minute', limit: 2.5 }, 'limit'],
      ['/limits', { scope: 'key', subject: key.id, kind: 'requests_per_minute', limit: 1_000_000_001 }, 'limit'],
      ['/limits', { scope: 'key', subject: 'key_nope', kind: 'requests_per_minute', limit: 1 }, 'subject'],
      ['/limits', { scope: 'model', kind: 'requests_per_minute', limit: 1 }, 'model'],
      ['/limits', { scope: 'model', subject: key.id, model: 'x', kind: 'requests_per_minute', limit: 1 }, 'subject'],
      ['/limits', { scope: 'key', subject: key.id, model: 'bad pattern', kind: 'requests_per_minute', limit: 1 }, 'model'],
      ['/budgets', { scope: 'key', subject: key.id, period: 'year', limitUsd: 1 }, 'period'],
      ['/budgets', { scope: 'key', subject: key.id, period: 'day', limitUsd: '1.0000000001' }, 'limitUsd'],
      ['/budgets', { scope: 'key', subject: key.id, period: 'day', limitUsd: '-3' }, 'limitUsd'],
      ['/budgets', { scope: 'key', subject: key.id, period: 'day', limitUsd: 0 }, 'limitUsd'],
      ['/budgets', { scope: 'key', subject: key.id, period: 'day', limitUsd: { usd: 5 } }, 'limitUsd'],
      ['/budgets', { scope: 'key', subject: key.id, period: 'day', limitUsd: 5, softUsd: 5 }, 'softUsd'],
      ['/budgets', { scope: 'key', subject: key.id, period: 'day', limitUsd: 5, timeZone: 'Mars/Olympus' }, 'timeZone'],
      ['/budgets', { scope: 'model', subject: key.id, period: 'day', limitUsd: 5 }, 'scope'],
      ['/budgets', { scope: 'account', subject: 'acc_nope', period: 'day', limitUsd: 5 }, 'subject'],
    ];
    for (const [path, body, field] of cases) {
      const answer = await admin.call('POST', path, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.message, JSON.stringify(body)).toContain(field);
    }
    const first = await admin.call('POST', '/budgets', { scope: 'key', subject: key.id, period: 'week', limitUsd: 5 });
    expect(first.status).toBe(201);
    const again = await admin.call('POST', '/budgets', { scope: 'key', subject: key.id, period: 'week', limitUsd: 9 });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    const softTooHigh = await admin.call('PATCH', `/budgets/${first.body.budget.id}`, { softUsd: '6' });
    expect(softTooHigh.status).toBe(400);
    expect(softTooHigh.body.error.message).toContain('softUsd');
    expect((await admin.call('GET', `/budgets/${first.body.budget.id}`)).body.budget.softNusd).toBeNull();
    expect((await admin.call('GET', '/limits/standing')).status).toBe(400);
  });
});

describe("admin API: standing from the gateway's own counters", () => {
  let running: RunningGateway;
  beforeAll(async () => {
    running = await startGateway({ masterKey: MASTER });
  });
  afterAll(() => running.close());

  it('reads a new budget as untouched from the in-process counters', async () => {
    const admin = new AdminClient(running.url, MASTER);
    const key = (await admin.call('POST', '/keys', { name: 'k' })).body.key;
    await admin.call('POST', '/budgets', { scope: 'key', subject: key.id, period: 'lifetime', limitUsd: '3.5' });
    const standing = await admin.call('GET', `/limits/standing?keyId=${key.id}`);
    expect(standing.body.counters).toBe('live');
    expect(standing.body.budgets[0]).toMatchObject({
      label: 'key lifetime budget',
      periodStart: 0,
      periodEnd: null,
      spentNusd: 0,
      remainingNusd: 3_500_000_000,
    });
    expect(standing.body.budgets[0].budget.limitUsd).toBe('3.50');
  });
});
