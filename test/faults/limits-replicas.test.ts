/**
 * Issue 26, "Across replicas, for real": rate limits, concurrency limits and budgets hold
 * globally over several real gateway processes sharing one PostgreSQL database and one Redis,
 * set through the admin API as an operator would. The file starts three replicas on a database
 * and a Redis of its own; each test has a key of its own and calls every replica at once: a rule
 * that held only per process would let each replica admit its own share, and the counts below
 * would be exceeded.
 * The last test kills a replica holding a concurrency slot and expects the slot back within the
 * lease (`admission.leaseMs`).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTenant, type Tenant } from '../helpers/webhook-tenants.js';
import { MASTER_KEY } from './gateway-process.js';
import { chat, countByStatus, openChat, streamCompleted } from './helpers/chat-call.js';
import { eventually } from './helpers/eventually.js';
import { setBudget, setLimit, spentNusd, standing, untilReplicasHold } from './helpers/limit-rules.js';
import { type PrivateRedis, startPrivateRedis } from './helpers/private-redis.js';
import { FAST_MODEL, NUSD_PER_OUTPUT_TOKEN, type Replicas, SLOW_MODEL, startReplicas } from './helpers/replicas.js';
import { ledgerSpend, readSpendCounter } from './helpers/spend-records.js';
import { readUsage } from './read-usage.js';
import { budgetCounter } from '../../src/limits/counter-names.js';

/** How long a dead replica's holds outlive it (`admission.leaseMs`), small so the kill test is quick. */
const LEASE_MS = 2_000;
/** The slow model's pause before each streamed word. */
const SLOW_CHUNK_MS = 20;

let redis: PrivateRedis | undefined;
let set: Replicas;
let urls: string[];

// One deployment for the whole file (three processes take a while to start on a busy host);
// each test works with a key of its own, so their rules and counters never meet.
beforeAll(async () => {
  redis = await startPrivateRedis();
  set = await startReplicas({ count: 3, redisUrl: redis.url, slowChunkDelayMs: SLOW_CHUNK_MS, leaseMs: LEASE_MS });
  urls = set.gateways.map((gateway) => gateway.url);
}, 360_000);

afterAll(async () => {
  await set?.stop();
  await redis?.kill();
});

beforeEach(({ onTestFailed }) => {
  onTestFailed(() => console.error(`${set.diagnostics()}\n--- redis\n${redis?.output().slice(-2000)}`));
});

/** A new account and key, with one limit rule on the key, held by every replica. */
async function tenantWithLimit(email: string, kind: string, limit: number): Promise<Tenant> {
  const tenant = await createTenant(urls[0], MASTER_KEY, email);
  const since = Date.now();
  const id = await setLimit(urls[0], { scope: 'key', subject: tenant.keyId, kind, limit });
  await untilReplicasHold(urls, tenant.keyId, [id], since);
  return tenant;
}

/** Chat calls the shared fake upstream has received so far. */
function chatRequestsSeen(): number {
  return set.upstream.requests.filter((request) => request.path === '/v1/chat/completions').length;
}

/** The usage rows of the key in the shared database, once there are `expected` (or 10 s passed). */
async function usageRowsOf(databaseUrl: string, keyId: string, expected: number): Promise<number> {
  const count = async () => (await readUsage(databaseUrl)).filter((row) => row.key_id === keyId).length;
  return eventually(count, (rows) => rows >= expected, 10_000);
}

/** A whole number of seconds, at least 1, as `Retry-After` must be. */
function retryAfterSeconds(headers: Headers): number {
  const value = headers.get('retry-after');
  return value !== null && /^\d+$/.test(value) ? Number(value) : Number.NaN;
}

describe('limits and budgets across real replicas (PostgreSQL + Redis)', () => {
  it('the harness: three replicas on one database each answer a key made on another, and the slow model streams slowly', async () => {
    const tenant = await createTenant(urls[0], MASTER_KEY, 'harness@example.com');
    // Every replica's key directory learns the new key (within a second; polled, as a loaded host may take longer).
    const knows = async (url: string) => (await fetch(`${url}/imgtask/task/none/fetch`, { headers: { authorization: `Bearer ${tenant.key}` } })).status !== 401;
    const known = await eventually(
      () => Promise.all(urls.map(knows)),
      (all) => all.every(Boolean),
      15_000,
    );
    expect(known).toEqual([true, true, true]);
    const seen = chatRequestsSeen();

    const answers = await Promise.all(urls.map((url) => chat(url, tenant.key, { model: FAST_MODEL, maxTokens: 5 })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    expect(answers.map((answer) => answer.json?.usage?.completion_tokens)).toEqual([5, 5, 5]);
    const slow = await chat(urls[1], tenant.key, { model: SLOW_MODEL, stream: true, words: 50 });
    expect(streamCompleted(slow)).toBe(true);
    expect(slow.ms).toBeGreaterThanOrEqual(50 * SLOW_CHUNK_MS);
    expect(chatRequestsSeen() - seen).toBe(4);
    expect(await usageRowsOf(set.databaseUrl, tenant.keyId, 4)).toBe(4);
  }, 60_000);

  it('a key with 30 requests per minute: of 90 calls spread over three replicas at once, 30 succeed and 60 get 429 with Retry-After', async () => {
    const tenant = await tenantWithLimit('rpm@example.com', 'requests_per_minute', 30);
    const seen = chatRequestsSeen();

    const started = Date.now();
    const results = await Promise.all(Array.from({ length: 90 }, (_, i) => chat(urls[i % 3], tenant.key, { model: FAST_MODEL, maxTokens: 5 })));
    const elapsed = Date.now() - started;

    const admitted = results.filter((result) => result.status === 200);
    const refused = results.filter((result) => result.status === 429);
    expect(admitted.length + refused.length, `statuses: ${JSON.stringify(countByStatus(results))}`).toBe(90);
    // GCRA gives one request back every 2 s (60 s / 30): a burst slower than that may see one more.
    expect(admitted.length).toBeGreaterThanOrEqual(30);
    expect(admitted.length).toBeLessThanOrEqual(30 + Math.floor(elapsed / 2_000));
    expect(chatRequestsSeen() - seen).toBe(admitted.length);
    for (const result of refused) {
      expect(result.json?.error?.code).toBe('rate_limit_exceeded');
      expect(result.json?.error?.type).toBe('requests');
      expect(retryAfterSeconds(result.headers)).toBeGreaterThanOrEqual(1);
      expect(retryAfterSeconds(result.headers)).toBeLessThanOrEqual(60);
    }
    for (const result of admitted) {
      expect(result.headers.get('x-ratelimit-limit-requests')).toBe('30');
      expect(result.headers.get('x-ratelimit-remaining-requests')).toMatch(/^\d+$/);
      expect(Number(result.headers.get('x-ratelimit-remaining-requests'))).toBeLessThan(30);
    }
  }, 60_000);

  it('a key with 2 concurrent requests: of six slow streams over three replicas at once, 2 run and 4 get 429; the slots come back when they end', async () => {
    const tenant = await tenantWithLimit('concurrency@example.com', 'concurrent_requests', 2);
    const seen = chatRequestsSeen();

    // 150 words at 20 ms each: every stream runs 3 s, far longer than six admissions take.
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => chat(urls[i % 3], tenant.key, { model: SLOW_MODEL, stream: true, words: 150 })));

    expect(countByStatus(results)).toEqual({ 200: 2, 429: 4 });
    expect(results.filter(streamCompleted)).toHaveLength(2);
    for (const result of results.filter((r) => r.status === 429)) expect(result.json?.error?.code).toBe('rate_limit_exceeded');
    expect(chatRequestsSeen() - seen).toBe(2);

    // Both streams ended: both slots are free again, on any replica (the end frees them just
    // after the client read the last byte, so allow a moment).
    const both = () => Promise.all([chat(urls[1], tenant.key, { model: FAST_MODEL }), chat(urls[2], tenant.key, { model: FAST_MODEL })]);
    const after = await eventually(both, (pair) => pair.every((result) => result.status === 200), 2_000);
    expect(after.map((result) => result.status)).toEqual([200, 200]);
  }, 60_000);

  it('a budget of $0.055 with calls of exactly $0.01: 20 concurrent streams over three replicas spend $0.05, and the ledger, the Redis counter and the report agree to the nano-dollar', async () => {
    const tenant = await createTenant(urls[0], MASTER_KEY, 'budget@example.com');
    const since = Date.now();
    const rule = { scope: 'key' as const, subject: tenant.keyId, period: 'lifetime' as const, timeZone: 'UTC' };
    const budgetId = await setBudget(urls[0], { scope: rule.scope, subject: rule.subject, period: rule.period, limitUsd: '0.055' });
    await untilReplicasHold(urls, tenant.keyId, [budgetId], since);
    const limitNusd = 55_000_000;
    // Output cap 100 tokens and a 150-word prompt: the fake answers exactly 100 tokens, so each
    // call reserves and costs 100 × 100,000 nUSD = $0.01 (input is free); a sixth would pass
    // $0.055 at admit whatever the timing, and no fewer than five can pass.
    const callNusd = 100 * NUSD_PER_OUTPUT_TOKEN;

    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => chat(urls[i % 3], tenant.key, { model: SLOW_MODEL, stream: true, words: 150, maxTokens: 100 })),
    );

    expect(countByStatus(results)).toEqual({ 200: 5, 429: 15 });
    expect(results.filter(streamCompleted)).toHaveLength(5);
    for (const result of results.filter((r) => r.status === 429)) expect(result.json?.error?.code).toBe('insufficient_quota');

    // The ledger: usage rows reach the database shortly after their calls end.
    const ledger = await eventually(
      () => ledgerSpend(set.databaseUrl, tenant.keyId),
      (read) => read.costNusd >= 5 * callNusd,
      10_000,
    );
    expect(ledger.costNusd).toBe(5 * callNusd);
    expect(ledger.costNusd).toBeLessThanOrEqual(limitNusd);

    // The counter settles as each call ends, maybe a moment after its usage row (on a loaded host, seconds).
    const counterName = budgetCounter(rule, 0);
    const counter = await eventually(
      () => readSpendCounter(redis!.url, counterName),
      (read) => read.settledNusd === ledger.costNusd,
      10_000,
    );
    expect(counter.settledNusd, JSON.stringify(counter)).toBe(ledger.costNusd);
    for (const url of urls) expect(spentNusd(await standing(url, tenant.keyId), budgetId)).toBe(ledger.costNusd);
  }, 60_000);

  // Last: it kills replica 1.
  it('a replica killed (SIGKILL) while it holds a concurrency slot: the slot comes back within the lease and a new stream is admitted', async () => {
    const tenant = await tenantWithLimit('lease@example.com', 'concurrent_requests', 1);

    // A 20 s stream (1000 words) on replica 1 takes the only slot.
    const held = await openChat(urls[1], tenant.key, { model: SLOW_MODEL, stream: true, words: 1_000 });
    expect(held.status).toBe(200);
    const reader = held.body!.getReader();
    expect((await reader.read()).done).toBe(false);
    const refusedWhileHeld = await chat(urls[0], tenant.key, { model: FAST_MODEL });
    expect(refusedWhileHeld.status).toBe(429);

    await set.kill(1);
    const killedAt = Date.now();
    await reader.cancel().catch(() => undefined);
    expect((await chat(urls[1], tenant.key, { model: FAST_MODEL })).status).toBe(0);

    const statuses: number[] = [];
    let admittedAfterMs: number | undefined;
    while (Date.now() - killedAt < LEASE_MS + 5_000) {
      const attempt = await chat(urls[0], tenant.key, { model: SLOW_MODEL, stream: true, words: 5 });
      statuses.push(attempt.status);
      if (attempt.status === 200) {
        admittedAfterMs = Date.now() - killedAt;
        expect(streamCompleted(attempt)).toBe(true);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(
      statuses.every((status) => status === 200 || status === 429),
      `statuses after the kill: ${statuses}`,
    ).toBe(true);
    expect(admittedAfterMs, `no stream admitted within ${LEASE_MS + 5_000} ms of the kill: ${statuses}`).toBeDefined();
    // The lease, plus a renewal period's slack and one poll.
    expect(admittedAfterMs!).toBeLessThanOrEqual(LEASE_MS + 2_500);
  }, 60_000);
});
