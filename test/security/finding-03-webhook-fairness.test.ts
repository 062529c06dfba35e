/**
 * Finding 3 of issue 23: webhooks were head-of-line shared. Sixteen delivery slots, oldest due
 * first for everyone: a tenant whose `notifyHook` accepts and never answers held every slot for
 * 10 s at a time, and another tenant's hook waited behind its backlog (more than 25 s with 60
 * imagines). Now claims go round-robin across accounts and stop at a few deliveries in flight per
 * account, so the other tenant's hook goes out at once; the hanging tenant's deliveries stay in
 * the outbox and are retried, never dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import {
  createTenant,
  type Receiver,
  startHangingReceiver,
  startPromptReceiver,
  submitImagine,
  type Tenant,
  untilTaskEnds,
  waitUntil,
} from '../helpers/webhook-tenants.js';

const MASTER_KEY = 'gg-finding-03-master-key-0123456789abcdef';
const TENANT_A_TASKS = 40;

let gw: RunningGateway;
let hanging: Receiver;
let prompt: Receiver;
let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  hanging = await startHangingReceiver();
  prompt = await startPromptReceiver();
  // Default webhook settings (16 slots, 10 s timeout): the defaults are what is under test.
  gw = await startGateway({ masterKey: MASTER_KEY, sandbox: { taskMs: 300 }, media: { allowPrivateUrls: true } });
  a = await createTenant(gw.url, MASTER_KEY, 'tenant-a@example.com');
  b = await createTenant(gw.url, MASTER_KEY, 'tenant-b@example.com');
});

afterAll(async () => {
  // Hanging deliveries end when their receiver goes away, so the gateway's stop does not wait for them.
  await hanging?.close();
  await gw?.close();
  await prompt?.close();
});

async function deliveriesOf(tenant: Tenant) {
  return gw.gateway.store.db.selectFrom('webhook_deliveries').select(['id', 'status', 'attempts', 'last_error']).where('owner', '=', tenant.keyId).execute();
}

describe('finding 3: webhook fairness between tenants', () => {
  it("one tenant's hanging notifyHook does not delay another tenant's hook, and its own deliveries are kept and retried", async () => {
    await Promise.all(Array.from({ length: TENANT_A_TASKS }, (_, i) => submitImagine(gw.url, a.key, `tenant a ${i}`, hanging.url)));
    // Tenant A's receiver holds connections open: the slots it may have are taken.
    await waitUntil(() => hanging.open() >= 4, 15_000, "tenant A's deliveries reach its hanging receiver");

    const id = await submitImagine(gw.url, b.key, 'tenant b', prompt.url);
    const record = await untilTaskEnds(gw.url, b.key, id);
    expect(record.status).toBe('SUCCESS');
    const isFinal = (hook: { body: string }) => {
      const body = JSON.parse(hook.body);
      return body.id === id && body.status === 'SUCCESS';
    };
    await waitUntil(() => prompt.received.some(isFinal), 30_000, "tenant B's final hook");
    const delivered = prompt.received.find(isFinal)!;
    expect(delivered.at - record.finishTime).toBeLessThan(2_500);
    // It went out while tenant A's receiver was still holding its deliveries: no luck of timing.
    expect(hanging.open()).toBeGreaterThan(0);
    // Tenant A holds at most its account's share of the slots (4 of 16).
    expect(hanging.mostOpen()).toBeLessThanOrEqual(4);

    // Tenant A's deliveries are all still in the outbox, none given up.
    const waiting = await deliveriesOf(a);
    expect(waiting.length).toBeGreaterThanOrEqual(TENANT_A_TASKS);
    expect(waiting.every((row) => row.status === 'pending')).toBe(true);

    // Its receiver goes away: the deliveries in flight fail and are rescheduled, still not dropped.
    await hanging.close();
    await waitUntil(async () => (await deliveriesOf(a)).some((row) => row.attempts > 0), 10_000, "tenant A's failed deliveries are rescheduled");
    const retried = await deliveriesOf(a);
    expect(retried.every((row) => row.status === 'pending')).toBe(true);
    expect(retried.filter((row) => row.attempts > 0).every((row) => /could not be reached|did not answer/.test(row.last_error ?? ''))).toBe(true);
  }, 60_000);
});
