/**
 * The behaviour every `CounterStore` must show, as one suite run against each store (memory and
 * Redis): GCRA rates, counts with leases, spend reserve → settle → release, all-or-none admits,
 * the tightest refusal, idempotent ends and seeding. Expected numbers are worked out by hand from
 * the rules in `docs/limits.md` and `src/limits/gcra.ts`.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CounterStore, Hold } from '../../src/limits/contract.js';

export interface StoreUnderTest {
  store: CounterStore;
  cleanup(): Promise<void>;
}

// Near the real clock (Redis key TTLs of seeded counters follow it), and not round, so float steps are exercised.
const T0 = Math.floor(Date.now() / 1_000) * 1_000 + 123;
const LEASE = 30_000;
type RateHold = Extract<Hold, { type: 'rate' }>;
let seq = 0;
const id = () => `req_${++seq}`;

const rpm = (limit: number, subject = 'k1'): RateHold => ({
  type: 'rate',
  counter: `lim:requests_per_minute:key:${subject}:*`,
  limit,
  amount: 1,
  label: 'key requests per minute',
});
const tpm = (limit: number, amount: number, subject = 'k1'): RateHold => ({
  type: 'rate',
  counter: `lim:tokens_per_minute:key:${subject}:*`,
  limit,
  amount,
  label: 'key tokens per minute',
});
const concurrent = (limit: number): Hold => ({ type: 'count', counter: 'lim:concurrent_requests:key:k1:*', limit, label: 'key concurrent requests' });
const spend = (limitNusd: number, amountNusd: number, expiresAt: number | null = T0 + 86_400_000): Extract<Hold, { type: 'spend' }> => ({
  type: 'spend',
  counter: `bud:key:k1:day:UTC:${expiresAt ?? 0}`,
  limitNusd,
  amountNusd,
  expiresAt,
  label: 'key daily budget',
});

export function describeCounterStore(name: string, make: () => Promise<StoreUnderTest>): void {
  describe(`CounterStore behaviour: ${name}`, () => {
    let subject: StoreUnderTest;
    let store: CounterStore;
    beforeEach(async () => {
      subject = await make();
      store = subject.store;
    });
    afterEach(async () => {
      await subject.cleanup();
    });
    const admit = (holds: Hold[], now: number, reservationId = id(), leaseMs = LEASE) => store.admit({ reservationId, holds, now, leaseMs });

    describe('rates (GCRA over a minute)', () => {
      it('lets 30 through at once at 30/min, the 31st only 2 s later', async () => {
        for (let i = 0; i < 30; i++) expect((await admit([rpm(30)], T0)).ok).toBe(true);
        const refused = await admit([rpm(30)], T0);
        expect(refused.ok).toBe(false);
        if (refused.ok) return;
        expect(refused.retryAt).toBe(T0 + 2_000);
        expect(refused.refused).toMatchObject({ label: 'key requests per minute', limit: 30, remaining: 0, resetAt: T0 + 60_000 });
        expect((await admit([rpm(30)], T0 + 1_999)).ok).toBe(false);
        expect((await admit([rpm(30)], T0 + 2_000)).ok).toBe(true);
        expect((await admit([rpm(30)], T0 + 2_000)).ok).toBe(false);
      });

      it('has no double burst across a minute boundary', async () => {
        const late = T0 + 59_000;
        for (let i = 0; i < 30; i++) expect((await admit([rpm(30)], late)).ok).toBe(true);
        // A fixed window would start afresh a second later; GCRA has replenished half a request.
        expect((await admit([rpm(30)], T0 + 60_000)).ok).toBe(false);
        expect((await admit([rpm(30)], late + 2_000)).ok).toBe(true);
      });

      it('counts variable cost and reports the remaining and the retry moment', async () => {
        const first = await admit([tpm(1_000, 600)], T0);
        expect(first).toMatchObject({ ok: true, states: [{ remaining: 400, resetAt: T0 + 36_000 }] });
        const second = await admit([tpm(1_000, 500)], T0 + 1_000);
        // 100 tokens short at 60 ms a token: 6 s after admit time.
        expect(second).toMatchObject({ ok: false, retryAt: T0 + 6_000 });
        expect((await admit([tpm(1_000, 500)], T0 + 6_000)).ok).toBe(true);
      });

      it('refuses an amount above the limit without a retry moment', async () => {
        const refused = await admit([tpm(1_000, 1_001)], T0);
        expect(refused.ok).toBe(false);
        if (!refused.ok) expect(refused.retryAt).toBeUndefined();
        expect((await admit([tpm(1_000, 1_000)], T0)).ok).toBe(true);
      });

      it('moves a tokens counter from the estimate to the real count at settle', async () => {
        const r1 = id();
        await admit([tpm(1_000, 800)], T0, r1);
        await store.settle(r1, { [tpm(1, 1).counter]: 200 }, T0);
        expect((await store.peek([tpm(1_000, 0)], T0))[0].remaining).toBe(800);
        const r2 = id();
        await admit([tpm(1_000, 100)], T0, r2);
        await store.settle(r2, { [tpm(1, 1).counter]: 700 }, T0);
        expect((await store.peek([tpm(1_000, 0)], T0))[0].remaining).toBe(100);
      });

      it('release returns tokens but keeps the request counted', async () => {
        const r = id();
        await admit([rpm(2), tpm(1_000, 900)], T0, r);
        await store.release(r, T0);
        const [requests, tokens] = await store.peek([rpm(2), tpm(1_000, 0)], T0);
        expect(requests.remaining).toBe(1);
        expect(tokens.remaining).toBe(1_000);
      });
    });

    describe('all or none, and the tightest refusal', () => {
      it('takes nothing when one hold refuses', async () => {
        await admit([tpm(1_000, 950)], T0);
        const refused = await admit([rpm(10), concurrent(5), spend(1_000, 100), tpm(1_000, 100)], T0);
        expect(refused).toMatchObject({ ok: false, refused: { label: 'key tokens per minute' } });
        const states = await store.peek([rpm(10), concurrent(5), spend(1_000, 0)], T0);
        expect(states.map((s) => s.remaining)).toEqual([10, 5, 1_000]);
      });

      it('reports the refusal that frees last, and a never-freeing one above all', async () => {
        await admit([rpm(1, 'a')], T0);
        for (let i = 0; i < 30; i++) await admit([rpm(30, 'b')], T0);
        // b frees in 2 s, a in a minute: a is reported, whichever comes first in the list.
        const rates = await admit([rpm(30, 'b'), rpm(1, 'a')], T0);
        expect(rates).toMatchObject({ ok: false, refused: { counter: rpm(1, 'a').counter }, retryAt: T0 + 60_000 });
        const never = await admit([rpm(30, 'b'), tpm(10, 20), rpm(1, 'a')], T0);
        expect(never.ok).toBe(false);
        if (!never.ok) {
          expect(never.refused.counter).toBe(tpm(10, 20).counter);
          expect(never.retryAt).toBeUndefined();
          expect(never.states.map((s) => s.counter)).toEqual([rpm(30, 'b').counter, tpm(10, 20).counter, rpm(1, 'a').counter]);
        }
      });
    });

    describe('counts', () => {
      it('holds at most the limit at once and frees at settle or release', async () => {
        const [a, b] = [id(), id()];
        expect((await admit([concurrent(2)], T0, a)).ok).toBe(true);
        expect((await admit([concurrent(2)], T0, b)).ok).toBe(true);
        const full = await admit([concurrent(2)], T0);
        expect(full).toMatchObject({ ok: false, refused: { type: 'count', remaining: 0 } });
        await store.settle(a, {}, T0 + 10);
        expect((await admit([concurrent(2)], T0 + 10)).ok).toBe(true);
        await store.release(b, T0 + 20);
        expect((await admit([concurrent(2)], T0 + 20)).ok).toBe(true);
      });

      it('frees a dead holder when its lease runs out, unless renewed', async () => {
        const [dead, alive] = [id(), id()];
        await admit([concurrent(2)], T0, dead, 1_000);
        await admit([concurrent(2)], T0, alive, 1_000);
        await store.renew([alive], 5_000, T0 + 900);
        expect((await admit([concurrent(2)], T0 + 999)).ok).toBe(false);
        expect((await admit([concurrent(2)], T0 + 1_000, id(), 60_000)).ok).toBe(true);
        expect((await admit([concurrent(2)], T0 + 1_000)).ok).toBe(false);
        expect((await admit([concurrent(2)], T0 + 5_900)).ok).toBe(true);
      });
    });

    describe('spend', () => {
      it('admits while settled + reserved + amount fit, settles the real cost and returns the rest', async () => {
        await store.seedSpend(spend(0, 0).counter, 300, spend(0, 0).expiresAt);
        const a = id();
        expect(await admit([spend(1_000, 500)], T0, a)).toMatchObject({ ok: true, states: [{ remaining: 200 }] });
        const refused = await admit([spend(1_000, 300)], T0);
        // Only the reservation in flight stands in the way: a retry soon may fit.
        expect(refused).toMatchObject({ ok: false, refused: { type: 'spend', remaining: 200 } });
        if (!refused.ok) expect(refused.retryAt).toBeGreaterThan(T0);
        await store.settle(a, { [spend(0, 0).counter]: 200 }, T0);
        expect((await store.peek([spend(1_000, 0)], T0))[0].remaining).toBe(500);
        expect((await admit([spend(1_000, 500)], T0)).ok).toBe(true);
        expect((await admit([spend(1_000, 1)], T0)).ok).toBe(false);
      });

      it('refuses until the period ends when settled spend alone is too much, never for lifetime', async () => {
        const daily = spend(1_000, 0);
        await store.seedSpend(daily.counter, 900, daily.expiresAt);
        const refused = await admit([spend(1_000, 200)], T0);
        expect(refused).toMatchObject({ ok: false, retryAt: daily.expiresAt });
        const lifetime = spend(1_000, 0, null);
        await store.seedSpend(lifetime.counter, 900, null);
        const never = await admit([spend(1_000, 200, null)], T0);
        expect(never.ok).toBe(false);
        if (!never.ok) expect(never.retryAt).toBeUndefined();
        const aboveCap = await admit([spend(100, 101)], T0);
        expect(aboveCap).toMatchObject({ ok: false, refused: { type: 'spend' } });
        if (!aboveCap.ok) expect(aboveCap.retryAt).toBeUndefined();
      });

      it('release returns the whole reservation; a lease that runs out does too', async () => {
        const [a, b] = [id(), id()];
        await admit([spend(1_000, 600)], T0, a);
        await store.release(a, T0);
        expect((await store.peek([spend(1_000, 0)], T0))[0].remaining).toBe(1_000);
        await admit([spend(1_000, 700)], T0, b, 2_000);
        expect((await admit([spend(1_000, 700)], T0 + 1_999)).ok).toBe(false);
        expect((await admit([spend(1_000, 700)], T0 + 2_000)).ok).toBe(true);
        // A release after the lease ran out changes nothing more: the reservation is already back.
        await store.release(b, T0 + 2_001);
        expect((await store.peek([spend(1_000, 0)], T0 + 2_001))[0].remaining).toBe(300);
      });

      it('a holder whose lease ran out while it was only slow still settles what it spent', async () => {
        const [slow, other, tooLate] = [id(), id(), id()];
        await admit([spend(1_000, 400)], T0, slow, 2_000);
        // Past the lease: the reservation is given back and the room taken by another call.
        expect((await admit([spend(1_000, 900)], T0 + 2_000, other)).ok).toBe(true);
        // The slow call ends: the 300 it spent count (its usage is real), beyond the limit if need be.
        await store.settle(slow, { [spend(0, 0).counter]: 300 }, T0 + 2_500);
        await store.settle(other, { [spend(0, 0).counter]: 600 }, T0 + 2_600);
        expect((await store.peek([spend(1_000, 0)], T0 + 2_600))[0].remaining).toBe(100);
        // Settled twice, counted once.
        await store.settle(slow, { [spend(0, 0).counter]: 300 }, T0 + 2_700);
        expect((await store.peek([spend(1_000, 0)], T0 + 2_700))[0].remaining).toBe(100);
        // A settle a minute and more after the lease (the holder was dead) is not taken.
        await admit([spend(1_000, 50)], T0 + 3_000, tooLate, 1_000);
        await store.settle(tooLate, { [spend(0, 0).counter]: 50 }, T0 + 4_000 + 60_000);
        expect((await store.peek([spend(1_000, 0)], T0 + 4_000 + 60_000))[0].remaining).toBe(100);
      });

      it('drops a period counter after it expires', async () => {
        const hold = spend(1_000, 400, T0 + 10_000);
        await store.seedSpend(hold.counter, 500, hold.expiresAt);
        expect((await admit([hold], T0)).ok).toBe(true);
        expect((await store.peek([hold], T0 + 9_999))[0].remaining).toBe(100);
        expect((await store.peek([hold], T0 + 10_000))[0].remaining).toBe(1_000);
      });

      it('seeds only once, and a reset overwrites the settled part keeping reservations', async () => {
        const hold = spend(1_000, 100);
        expect(await store.seedSpend(hold.counter, 200, hold.expiresAt)).toBe(true);
        expect(await store.seedSpend(hold.counter, 999, hold.expiresAt)).toBe(false);
        await admit([hold], T0);
        expect((await store.peek([hold], T0))[0].remaining).toBe(700);
        await store.resetSpend(hold.counter, 50, hold.expiresAt);
        expect((await store.peek([hold], T0))[0].remaining).toBe(850);
      });

      it('seeds a counter that an admit created before any seed', async () => {
        const hold = spend(1_000, 100);
        await admit([hold], T0);
        expect(await store.seedSpend(hold.counter, 400, hold.expiresAt)).toBe(true);
        expect((await store.peek([hold], T0))[0].remaining).toBe(500);
      });

      it('keeps nUSD amounts exact past 10^14', async () => {
        const big = spend(9_000_000_000_000_001, 4_000_000_000_000_001);
        await store.seedSpend(big.counter, 1_000_000_000_000_000, big.expiresAt);
        const r = id();
        expect(await admit([big], T0, r)).toMatchObject({ ok: true, states: [{ remaining: 4_000_000_000_000_000 }] });
        await store.settle(r, { [big.counter]: 3_000_000_000_000_007 }, T0);
        expect((await store.peek([big], T0))[0].remaining).toBe(4_999_999_999_999_994);
      });
    });

    describe('idempotent ends', () => {
      it('a second settle, or a settle after a release, changes nothing', async () => {
        const hold = spend(1_000, 400);
        const a = id();
        await admit([hold, concurrent(1)], T0, a);
        await store.settle(a, { [hold.counter]: 300 }, T0);
        await store.settle(a, { [hold.counter]: 300 }, T0);
        await store.release(a, T0);
        expect((await store.peek([hold, concurrent(1)], T0)).map((s) => s.remaining)).toEqual([700, 1]);
        const b = id();
        await admit([hold], T0, b);
        await store.release(b, T0);
        await store.settle(b, { [hold.counter]: 300 }, T0);
        expect((await store.peek([hold], T0))[0].remaining).toBe(700);
      });

      it('refuses to admit a reservation id twice', async () => {
        const a = id();
        await admit([rpm(10)], T0, a);
        await expect(admit([rpm(10)], T0, a)).rejects.toThrow(/already exists/);
        await store.settle(a, {}, T0);
        await expect(admit([rpm(10)], T0, a)).rejects.toThrow(/already exists/);
      });

      it('ending an unknown reservation is a no-op', async () => {
        await store.settle('never-admitted', { x: 1 }, T0);
        await store.release('never-admitted', T0);
        expect((await store.peek([rpm(10)], T0))[0].remaining).toBe(10);
      });
    });

    it('rejects malformed holds with a clear error', async () => {
      await expect(admit([{ ...rpm(10), limit: 0 }], T0)).rejects.toThrow(/limit must be a positive integer/);
      await expect(admit([spend(1_000, 1.5)], T0)).rejects.toThrow(/integer of nUSD/);
      await expect(admit([rpm(10), rpm(10)], T0)).rejects.toThrow(/held twice/);
    });
  });
}
