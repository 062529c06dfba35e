import { integerPrice } from '../routing/integer-price.js';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../core/errors.js';
import { FakeCounterStore, StaticRuleSource } from '../../test/helpers/fake-counter-store.js';
import type { BudgetRule } from './contract.js';
import { openLimits } from './open-limits.js';
import { rebuildBudgetCounters } from './rebuild-budgets.js';
import type { LimitsService } from './limits-service.js';

const NOW = Date.UTC(2026, 10, 20, 12, 0, 0);
const PRICE = integerPrice({ input: 2.5, output: 10 });

function service(rules: StaticRuleSource, counters = new FakeCounterStore(), extra: Partial<Parameters<typeof openLimits>[0]> = {}): LimitsService {
  return openLimits({ rules, counters, priceOf: () => PRICE, now: () => NOW, ...extra });
}

const call = (overrides: Partial<Parameters<LimitsService['admit']>[0]> = {}) => ({
  requestId: `req_${Math.random()}`,
  keyId: 'k1',
  accountId: 'a1',
  model: 'textmodel-b-4o',
  ...overrides,
});

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

describe('which rules apply', () => {
  it('the longest matching override replaces the subject rule of the same kind; other kinds and subjects still apply', async () => {
    const rules = new StaticRuleSource({
      limits: [
        { scope: 'key', subject: 'k1', kind: 'requests_per_minute', limit: 100 },
        { scope: 'key', subject: 'k1', model: 'textmodel-*', kind: 'requests_per_minute', limit: 50 },
        { scope: 'key', subject: 'k1', model: 'textmodel-b-*', kind: 'requests_per_minute', limit: 10 },
        { scope: 'key', subject: 'k1', model: 'other-*', kind: 'requests_per_minute', limit: 1 },
        { scope: 'account', subject: 'a1', kind: 'requests_per_minute', limit: 1000 },
        { scope: 'account', subject: 'a2', kind: 'requests_per_minute', limit: 1 },
        { scope: 'key', subject: 'k2', kind: 'requests_per_minute', limit: 1 },
        { scope: 'model', model: 'textmodel-b-*', kind: 'requests_per_minute', limit: 5000 },
        { scope: 'model', model: 'textmodel-a-*', kind: 'requests_per_minute', limit: 1 },
      ],
    });
    const counters = new FakeCounterStore();
    await service(rules, counters).admit(call());
    const limits = counters.admits[0].holds.map((hold) => (hold.type === 'rate' ? hold.limit : -1)).sort((a, b) => a - b);
    expect(limits).toEqual([10, 1000, 5000]);
    expect(counters.admits[0].holds.map((hold) => hold.label)).toContain('key requests per minute for textmodel-b-* (10)');
  });

  it('with no rule for the call, nothing is asked of the counters and nothing is tokenized', async () => {
    const rules = new StaticRuleSource({ limits: [{ scope: 'key', subject: 'someone-else', kind: 'tokens_per_minute', limit: 10 }] });
    const counters = new FakeCounterStore();
    let counted = 0;
    const admitted = await service(rules, counters).admit(call({ estimate: { inputTokens: () => ++counted, outputCap: () => 10 } }));
    expect(admitted).toBeUndefined();
    expect(counters.admits).toHaveLength(0);
    expect(counted).toBe(0);
  });

  it('a requests rule alone never reads the estimate', async () => {
    const rules = new StaticRuleSource({ limits: [{ scope: 'key', subject: 'k1', kind: 'requests_per_minute', limit: 10 }] });
    let read = 0;
    await service(rules).admit(call({ estimate: { inputTokens: () => ++read, outputCap: () => ++read } }));
    expect(read).toBe(0);
  });

  it('a task submit takes task kinds under the task id; a call does not', async () => {
    const rules = new StaticRuleSource({
      limits: [
        { scope: 'key', subject: 'k1', kind: 'task_submits_per_minute', limit: 5 },
        { scope: 'key', subject: 'k1', kind: 'unfinished_tasks', limit: 2 },
        { scope: 'key', subject: 'k1', kind: 'concurrent_requests', limit: 2 },
      ],
    });
    const counters = new FakeCounterStore();
    const limits = service(rules, counters);
    expect(await limits.admit(call())).toMatchObject({ tokenCounters: [], spendCounters: [] });
    expect(counters.admits[0].holds.map((hold) => hold.type)).toEqual(['count']);
    await limits.admit(call({ task: { id: 'task_1', amountNusd: 0, leaseMs: 3_600_000 } }));
    expect(counters.admits[1]).toMatchObject({ reservationId: 'task_1', leaseMs: 3_600_000 });
    expect(counters.admits[1].holds.map((hold) => hold.label).sort()).toEqual(['key task submits per minute (5)', 'key unfinished tasks (2)']);
  });
});

describe('refusals', () => {
  it('a budget refusal is insufficient_quota naming the budget and its reset, never the spend', async () => {
    const rules = new StaticRuleSource({ budgets: [{ scope: 'account', subject: 'a1', limitNusd: 5_000_000_000 }] });
    const counters = new FakeCounterStore();
    const limits = service(rules, counters);
    await limits.admit(call({ estimate: { inputTokens: () => 0, outputCap: () => 1 } }));
    const error = await refusal(limits.admit(call({ estimate: { inputTokens: () => 0, outputCap: () => 600_000_000 } })));
    expect(error.kind).toBe('insufficient_quota');
    expect(error.code).toBe('insufficient_quota');
    expect(error.message).toBe('This request would exceed the account monthly budget of $5.00, resets 2026-12-01T00:00:00Z.');
  });

  it('a counter store that cannot answer is a 503 budget_unavailable with Retry-After 1', async () => {
    const rules = new StaticRuleSource({ budgets: [{ scope: 'key', subject: 'k1', limitNusd: 1 }] });
    const counters = new FakeCounterStore();
    counters.failWith = new Error('down');
    const error = await refusal(service(rules, counters).admit(call()));
    expect(error).toMatchObject({ kind: 'overloaded', status: 503, code: 'budget_unavailable', retryAfter: 1 });
  });

  it('the rate-limit snapshot is kept for the refusal too, once', async () => {
    const rules = new StaticRuleSource({ limits: [{ scope: 'key', subject: 'k1', kind: 'requests_per_minute', limit: 1 }] });
    const limits = service(rules);
    await limits.admit(call({ requestId: 'r1' }));
    await refusal(limits.admit(call({ requestId: 'r2' })));
    expect(limits.takeSnapshot('r2')?.requests).toMatchObject({ limit: 1, remaining: 0 });
    expect(limits.takeSnapshot('r2')).toBeUndefined();
  });

  it('a model-wide rule refuses but never shows its standing in the headers', async () => {
    const rules = new StaticRuleSource({ limits: [{ scope: 'model', model: 'textmodel-*', kind: 'requests_per_minute', limit: 1 }] });
    const limits = service(rules);
    await limits.admit(call({ requestId: 'r1', keyId: 'other' }));
    expect(limits.takeSnapshot('r1')).toBeUndefined();
    const error = await refusal(limits.admit(call({ requestId: 'r2' })));
    expect(error.message).toContain('model requests per minute for textmodel-* (1)');
  });
});

describe('ending holds', () => {
  it('settles tokens and spend to what the call used; releases a call that reached no upstream', async () => {
    const rules = new StaticRuleSource({
      limits: [{ scope: 'key', subject: 'k1', kind: 'tokens_per_minute', limit: 10_000 }],
      budgets: [{ scope: 'key', subject: 'k1', limitNusd: 1_000_000_000 }],
    });
    const counters = new FakeCounterStore();
    const limits = service(rules, counters);
    const estimate = { inputTokens: () => 10, outputCap: () => 100 };
    const admitted = await limits.admit(call({ estimate }));
    const spendHold = counters.admits[0].holds.find((hold) => hold.type === 'spend');
    // 10 × 2500 + 100 × 10000 nUSD: the most this call can cost.
    expect(spendHold?.type === 'spend' && spendHold.amountNusd).toBe(1_025_000);
    await limits.end(admitted!, { usage: { inputTokens: 10, outputTokens: 3 }, costNusd: 55_000, release: false });
    expect(counters.spent(spendHold!.counter)).toBe(55_000);
    const states = await counters.peek(counters.admits[0].holds, NOW);
    expect(states.find((state) => state.type === 'rate')?.remaining).toBe(10_000 - 13);

    const failed = await limits.admit(call({ estimate }));
    await limits.end(failed!, { costNusd: 0, release: true });
    expect(counters.spent(spendHold!.counter)).toBe(55_000);
    expect((await counters.peek(counters.admits[0].holds, NOW)).find((state) => state.type === 'rate')?.remaining).toBe(10_000 - 13);
  });

  it('a task settles its budget to what it was charged, or returns it all when refunded', async () => {
    const rules = new StaticRuleSource({ budgets: [{ scope: 'key', subject: 'k1', limitNusd: 1_000_000_000 }] });
    const counters = new FakeCounterStore();
    const limits = service(rules, counters);
    await limits.admit(call({ task: { id: 't1', amountNusd: 400_000_000, leaseMs: 1_000_000 } }));
    await limits.admit(call({ task: { id: 't2', amountNusd: 400_000_000, leaseMs: 1_000_000 } }));
    const counter = counters.admits[0].holds[0].counter;
    await limits.endTask({ id: 't1', keyId: 'k1', accountId: 'a1', createdAt: NOW }, 300_000_000);
    await limits.endTask({ id: 't2', keyId: 'k1', accountId: 'a1', createdAt: NOW }, undefined);
    expect(counters.spent(counter)).toBe(300_000_000);
    expect(counters.openReservations).toEqual([]);
  });
});

describe('budget counters and the ledger', () => {
  it('seeds a counter from the ledger once per process, then counts from there', async () => {
    const rules = new StaticRuleSource({ budgets: [{ scope: 'key', subject: 'k1', limitNusd: 1_000_000 }] });
    const counters = new FakeCounterStore();
    const reads: Array<[string, number, number | null]> = [];
    const limits = service(rules, counters, {
      spentInPeriod: async (rule: BudgetRule, start: number, end: number | null) => {
        reads.push([rule.subject, start, end]);
        return 900_000;
      },
    });
    const estimate = { inputTokens: () => 0, outputCap: () => 5 };
    await limits.admit(call({ estimate }));
    await limits.admit(call({ estimate }));
    expect(reads).toEqual([['k1', Date.UTC(2026, 10, 1), Date.UTC(2026, 11, 1)]]);
    // 900,000 seeded + 2 × 50,000 reserved: the next 50,000 does not fit.
    const error = await refusal(limits.admit(call({ estimate })));
    expect(error.kind).toBe('insufficient_quota');
  });

  it('the soft threshold warns on answers and tells the audit trail once per period', async () => {
    const rules = new StaticRuleSource({ budgets: [{ scope: 'key', subject: 'k1', limitNusd: 1_000_000, softNusd: 100_000 }] });
    const audited: string[] = [];
    const limits = service(rules, new FakeCounterStore(), { onSoftThreshold: (_rule, label) => audited.push(label) });
    const estimate = { inputTokens: () => 0, outputCap: () => 5 };
    await limits.admit(call({ requestId: 'r1', estimate }));
    expect(limits.takeSnapshot('r1')).toBeUndefined();
    await limits.admit(call({ requestId: 'r2', estimate }));
    await limits.admit(call({ requestId: 'r3', estimate }));
    expect(limits.takeSnapshot('r2')?.budgetWarnings).toEqual(['key monthly budget of $0.001: past its warning threshold']);
    expect(limits.takeSnapshot('r3')?.budgetWarnings).toHaveLength(1);
    expect(audited).toEqual(['key monthly budget of $0.001, resets 2026-12-01T00:00:00Z']);
  });

  it('rebuild overwrites each budget counter of the current period with the ledger', async () => {
    const rules = new StaticRuleSource({ budgets: [{ scope: 'account', subject: 'a1', limitNusd: 10, period: 'day' }] });
    const counters = new FakeCounterStore();
    const rebuilt = await rebuildBudgetCounters({ budgets: rules.budgets(), counters, spentInPeriod: async () => 7, now: NOW });
    expect(rebuilt).toHaveLength(1);
    expect(counters.spent(rebuilt[0].counter)).toBe(7);
    expect(rebuilt[0].counter).toBe(`bud:account:a1:day:UTC:${Date.UTC(2026, 10, 20)}`);
  });
});
