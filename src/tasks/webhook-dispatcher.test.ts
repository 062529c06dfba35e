import { lookup } from 'node:dns/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../media/private-addresses.js';
import { openStore, type OpenedStore } from '../store/open-store.js';
import { insertDelivery, WebhookDeliveriesRepository } from '../store/webhook-deliveries-repository.js';
import { WebhookDispatcher, type WebhookDispatcherOptions } from './webhook-dispatcher.js';
import { webhookSecretFor } from './webhook-secret.js';
import { verifyWebhookSignature } from './webhook-signature.js';

const GATEWAY_KEY = Buffer.alloc(32, 9);
const OWNER = 'key_owner_1';
const T0 = 1_750_000_000_000;

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

type Handler = (request: IncomingMessage, response: ServerResponse, received: Received) => void;

let server: Server;
let base: string;
let received: Received[] = [];
let handler: Handler = (_request, response) => response.end('ok');

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry = { path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(entry);
      handler(request, response, entry);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

let store: OpenedStore;
let repository: WebhookDeliveriesRepository;
let clock: number;
const dispatchers: WebhookDispatcher[] = [];

beforeEach(async () => {
  store = await openStore('sqlite::memory:');
  repository = new WebhookDeliveriesRepository(store.db, store.dialect);
  received = [];
  handler = (_request, response) => response.end('ok');
  clock = T0;
});

afterEach(async () => {
  await Promise.all(dispatchers.splice(0).map((dispatcher) => dispatcher.stop()));
  server.closeIdleConnections();
  await store.close();
});

function dispatcher(options: Partial<WebhookDispatcherOptions> = {}): WebhookDispatcher {
  const created = new WebhookDispatcher({
    repository,
    secretFor: (owner) => webhookSecretFor(GATEWAY_KEY, owner),
    allowPrivateUrls: true,
    retryHours: 24,
    logger: pino({ level: 'silent' }),
    now: () => clock,
    backoff: { baseMs: 1_000, maxMs: 60_000 },
    ...options,
  });
  dispatchers.push(created);
  return created;
}

async function enqueue(id: string, url: string, body = `{"id":"${id}","status":"SUCCESS"}`, owner = OWNER): Promise<void> {
  await insertDelivery(store.db, { id, taskId: id.split('.')[0], owner, url, body, now: clock });
}

async function row(id: string) {
  const rows = await repository.listForTask(id.split('.')[0]);
  return rows.find((entry) => entry.id === id)!;
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('webhook dispatcher', () => {
  it('POSTs the stored body with a signature the receiver verifies with the owner secret', async () => {
    const body = '{"id":"task_1","status":"SUCCESS","progress":"100%","imageUrl":"https://gw.example/media/a.png"}';
    await enqueue('task_1.3', `${base}/hook?token=abc`, body);
    expect(await dispatcher().runOnce()).toBe(1);

    expect(received).toHaveLength(1);
    const [hit] = received;
    expect(hit.path).toBe('/hook?token=abc');
    expect(hit.body).toBe(body);
    expect(hit.headers['content-type']).toBe('application/json');
    expect(hit.headers['user-agent']).toBe('gengate-webhooks');
    expect(hit.headers['x-gengate-delivery']).toBe('task_1.3');
    const secret = webhookSecretFor(GATEWAY_KEY, OWNER);
    const signature = String(hit.headers['x-gengate-signature']);
    expect(signature).toMatch(/^t=1750000000,v1=[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(secret, signature, hit.body, { now: T0 / 1000 })).toBe(true);
    expect(verifyWebhookSignature(webhookSecretFor(GATEWAY_KEY, 'someone_else'), signature, hit.body, { now: T0 / 1000 })).toBe(false);

    expect(await row('task_1.3')).toMatchObject({ status: 'delivered', attempts: 1, delivered_at: T0, last_error: null });
    expect(await repository.pendingCount()).toBe(0);
  });

  it('retries a failing receiver with growing delays until it accepts', async () => {
    let calls = 0;
    handler = (_request, response) => {
      calls++;
      if (calls === 1) response.writeHead(500).end('database down');
      else if (calls === 2) response.socket?.destroy();
      else response.writeHead(204).end();
    };
    await enqueue('task_2.1', `${base}/hook`);
    const sender = dispatcher();

    await sender.runOnce();
    let state = await row('task_2.1');
    expect(state).toMatchObject({ status: 'pending', attempts: 1, last_error: 'the receiver answered HTTP 500: database down' });
    const firstDelay = state.next_attempt_at - T0;
    expect(firstDelay).toBeGreaterThanOrEqual(800);
    expect(firstDelay).toBeLessThanOrEqual(1_200);
    // Not due yet: nothing is sent.
    expect(await sender.runOnce()).toBe(0);

    clock = state.next_attempt_at;
    await sender.runOnce();
    state = await row('task_2.1');
    expect(state).toMatchObject({ status: 'pending', attempts: 2 });
    expect(state.last_error).toMatch(/could not be reached/);
    const secondDelay = state.next_attempt_at - clock;
    expect(secondDelay).toBeGreaterThanOrEqual(1_600);
    expect(secondDelay).toBeLessThanOrEqual(2_400);

    clock = state.next_attempt_at;
    await sender.runOnce();
    expect(await row('task_2.1')).toMatchObject({ status: 'delivered', attempts: 3, delivered_at: clock, last_error: null });
    expect(received.map((hit) => hit.headers['x-gengate-delivery'])).toEqual(['task_2.1', 'task_2.1', 'task_2.1']);
  });

  it('gives up once the retry window after enqueueing has passed', async () => {
    handler = (_request, response) => response.writeHead(503).end();
    await enqueue('task_3.1', `${base}/hook`);
    const sender = dispatcher({ retryHours: 10 / 3600, backoff: { baseMs: 2_000, maxMs: 60_000 } });

    for (let round = 0; round < 10 && (await row('task_3.1')).status === 'pending'; round++) {
      clock = Math.max(clock, (await row('task_3.1')).next_attempt_at);
      await sender.runOnce();
    }
    const state = await row('task_3.1');
    expect(state.status).toBe('dead');
    // Tries at 0 s, ~2 s and ~6 s; the next (~8 s later, ±20 %) would fall after the 10 s window.
    expect(state.attempts).toBe(3);
    expect(received).toHaveLength(state.attempts);
    expect(clock - T0).toBeLessThanOrEqual(10_000);
    expect(state.last_error).toMatch(new RegExp(`^gave up after ${state.attempts} attempts .*HTTP 503`));
    expect(await sender.runOnce()).toBe(0);
  });

  it('refuses private and loopback receivers unless allowed, without sending anything', async () => {
    await enqueue('task_4.1', `${base}/hook`);
    await enqueue('task_4.2', 'http://169.254.169.254/latest/meta-data');
    await enqueue('task_4.3', 'ftp://example.com/hook');
    const closed = dispatcher({ allowPrivateUrls: false });
    expect(await closed.runOnce()).toBe(3);
    expect(received).toHaveLength(0);
    for (const id of ['task_4.1', 'task_4.2']) {
      const state = await row(id);
      expect(state.status).toBe('dead');
      expect(state.last_error).toMatch(/^refused: .*private or loopback/);
    }
    expect((await row('task_4.3')).last_error).toMatch(/^refused: .*http or https/);
  });

  it('refuses a host name that resolves to a private address, checked when connecting', async () => {
    const name = hostname();
    const addresses = await lookup(name, { all: true });
    // Precondition of this test: the machine's own name resolves to a private or loopback address.
    expect(addresses.some((entry) => isPrivateAddress(entry.address))).toBe(true);
    const port = (server.address() as AddressInfo).port;
    await enqueue('task_5.1', `http://${name}:${port}/hook`);
    await dispatcher({ allowPrivateUrls: false }).runOnce();
    expect(received).toHaveLength(0);
    expect(await row('task_5.1')).toMatchObject({ status: 'dead', attempts: 1 });
    expect((await row('task_5.1')).last_error).toMatch(/resolves to a private or loopback address/);
  });

  it('does not send delivered rows again after a restart, even when the engine enqueues the same version again', async () => {
    await enqueue('task_6.1', `${base}/hook`);
    const first = dispatcher();
    await first.runOnce();
    await first.stop();
    expect(received).toHaveLength(1);

    await enqueue('task_6.1', `${base}/hook`, '{"sent":"again"}');
    clock += 60 * 60_000;
    const second = dispatcher();
    expect(await second.runOnce()).toBe(0);
    expect(received).toHaveLength(1);
    expect(await row('task_6.1')).toMatchObject({ status: 'delivered', attempts: 1 });
  });

  it('does not let a slow receiver hold up the others', async () => {
    handler = (request, response) => {
      if (request.url === '/slow') return; // never answers
      response.end('ok');
    };
    await enqueue('task_7.1', `${base}/slow`);
    await enqueue('task_7.2', `${base}/fast`);
    const started = Date.now();
    await dispatcher({ timeoutMs: 600 }).runOnce();

    const fast = received.find((hit) => hit.path === '/fast');
    expect(fast!.at - started).toBeLessThan(500);
    expect(await row('task_7.2')).toMatchObject({ status: 'delivered' });
    expect(await row('task_7.1')).toMatchObject({ status: 'pending', attempts: 1, last_error: 'the receiver did not answer within 600 ms' });
  });

  it('reads no more than a few KB of the answer', async () => {
    let written = 0;
    handler = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = (): void => {
        while (!response.destroyed && written < 1024 ** 3) {
          written += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
      };
      response.on('close', () => undefined);
      pump();
    };
    await enqueue('task_8.1', `${base}/endless`);
    await dispatcher({ timeoutMs: 5_000 }).runOnce();
    expect(await row('task_8.1')).toMatchObject({ status: 'delivered', attempts: 1 });
    expect(written).toBeLessThan(64 * 1024 ** 2);
  });

  it('runs on its own once started, wakes on demand, and stop() waits for a delivery in flight', async () => {
    handler = (_request, response) => setTimeout(() => response.end('ok'), 300);
    const sender = dispatcher({ intervalMs: 60_000, now: Date.now });
    sender.start();
    clock = Date.now();
    await enqueue('task_9.1', `${base}/hook`);
    sender.wake();
    await waitFor(() => received.length === 1);
    await sender.stop();
    expect((await row('task_9.1')).status).toBe('delivered');

    // Stopped: a new delivery stays in the outbox.
    await enqueue('task_9.2', `${base}/hook`);
    sender.wake();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toHaveLength(1);
    expect((await row('task_9.2')).status).toBe('pending');
  });

  it('looks at an empty outbox less and less often, and still finds a delivery it was not woken for', async () => {
    let claims = 0;
    const counting: typeof repository = Object.create(repository);
    counting.claimDue = (...args) => {
      claims++;
      return repository.claimDue(...args);
    };
    const sender = dispatcher({ repository: counting, intervalMs: 20, maxIdleIntervalMs: 160, now: Date.now });
    const startedAt = Date.now();
    sender.start();
    // At least a second, and at least 4 claims (a loaded host runs timers late: waited for, not assumed).
    await waitFor(() => claims >= 4 && Date.now() - startedAt >= 1_000);
    const seconds = (Date.now() - startedAt) / 1_000;
    // Every 20 ms would be 50 claims a second; waits of 20, 40, 80, then 160 ms make about 9 in the first second, 6 a second after.
    expect(claims).toBeGreaterThanOrEqual(4);
    expect(claims).toBeLessThanOrEqual(16 * Math.max(1, seconds));
    // Enqueued by another process (no wake here): seen within the longest idle wait.
    clock = Date.now();
    await enqueue('task_11.1', `${base}/hook`);
    const enqueuedAt = Date.now();
    await waitFor(() => received.length === 1, 1_000);
    expect(received[0].at - enqueuedAt).toBeLessThan(400);
  });

  it('stop() gives up waiting after its bound and leaves the cancelled delivery to its lease', async () => {
    handler = () => undefined; // never answers
    const sender = dispatcher({ intervalMs: 60_000, timeoutMs: 5_000, stopTimeoutMs: 200 });
    sender.start();
    await enqueue('task_10.1', `${base}/hook`);
    sender.wake();
    await waitFor(() => received.length === 1);
    const stopping = Date.now();
    await sender.stop();
    expect(Date.now() - stopping).toBeLessThan(1_500);
    const state = await row('task_10.1');
    expect(state).toMatchObject({ status: 'pending', attempts: 0, last_error: null });
    expect(state.lease_until).toBeGreaterThan(clock);
  });

  it("finding 3: a tenant whose receiver hangs fills only its own share; another tenant's delivery goes at once", async () => {
    handler = (request, response) => {
      if (request.url === '/hang') return; // accepts, never answers
      response.end('ok');
    };
    for (let i = 0; i < 12; i++) await enqueue(`task_a${i}.1`, `${base}/hang`, undefined, 'key_tenant_a');
    const sender = dispatcher({ concurrency: 6, caps: { perTenant: 2, perHost: 8 }, timeoutMs: 5_000, stopTimeoutMs: 100, now: Date.now });
    clock = Date.now();
    sender.start();
    await waitFor(() => received.length === 2);
    clock = Date.now();
    await enqueue('task_b.1', `${base}/prompt`, undefined, 'key_tenant_b');
    const enqueuedAt = Date.now();
    sender.wake();
    await waitFor(() => received.some((hit) => hit.path === '/prompt'), 1_000);
    expect(received.find((hit) => hit.path === '/prompt')!.at - enqueuedAt).toBeLessThan(500);
    await waitFor(async () => (await row('task_b.1')).status === 'delivered', 1_000);
    // Tenant A still has only its two in flight; the rest wait their turn in the outbox.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(received.filter((hit) => hit.path === '/hang')).toHaveLength(2);
    const waiting = await Promise.all(Array.from({ length: 12 }, (_, i) => row(`task_a${i}.1`)));
    expect(waiting.every((state) => state.status === 'pending')).toBe(true);
  });

  it('finding 3: a receiver that keeps timing out gets the short timeout, then its circuit defers its deliveries without connecting, and a trial closes it', async () => {
    let answering = false;
    handler = (_request, response) => {
      if (answering) response.end('ok');
    };
    const sender = dispatcher({ timeoutMs: 400, slowTimeoutMs: 100, circuitFailures: 5, circuitCooldownMs: 10_000, caps: { perTenant: 10, perHost: 10 } });
    for (let i = 1; i <= 3; i++) await enqueue(`task_t${i}.1`, `${base}/hook`);
    await sender.runOnce();
    for (let i = 1; i <= 3; i++) expect((await row(`task_t${i}.1`)).last_error).toBe('the receiver did not answer within 400 ms');

    // Three timeouts in a row: the next attempts get 100 ms; the fifth failure opens the circuit.
    await enqueue('task_t4.1', `${base}/hook`);
    await enqueue('task_t5.1', `${base}/hook`);
    await sender.runOnce();
    for (const id of ['task_t4.1', 'task_t5.1']) expect((await row(id)).last_error).toBe('the receiver did not answer within 100 ms');
    const openedAt = clock;
    expect(received).toHaveLength(5);

    // Open: due deliveries (retries and a new one) are put off to the cooldown's end, no connection, no attempt counted.
    clock += 5_000;
    await enqueue('task_t6.1', `${base}/hook`);
    expect(await sender.runOnce()).toBe(6);
    expect(received).toHaveLength(5);
    for (const id of ['task_t1.1', 'task_t2.1', 'task_t3.1', 'task_t4.1', 'task_t5.1', 'task_t6.1']) {
      expect(await row(id)).toMatchObject({ status: 'pending', next_attempt_at: openedAt + 10_000, lease_until: 0 });
    }
    expect((await row('task_t1.1')).attempts).toBe(1);
    expect((await row('task_t6.1')).attempts).toBe(0);

    // Cooldown over and the receiver answers again: one trial goes; the rest wait for its verdict.
    answering = true;
    clock = openedAt + 10_000;
    await sender.runOnce();
    expect(received).toHaveLength(6);
    const states = await Promise.all(['task_t1.1', 'task_t2.1', 'task_t3.1', 'task_t4.1', 'task_t5.1', 'task_t6.1'].map(row));
    expect(states.filter((state) => state.status === 'delivered')).toHaveLength(1);
    // Closed: the others are delivered when due, with the full timeout again.
    handler = (_request, response) => setTimeout(() => response.end('ok'), 200);
    clock += 60_000;
    await sender.runOnce();
    for (const state of await Promise.all(states.map((state) => row(state.id)))) expect(state.status).toBe('delivered');
  });

  it('finding 3: a delivery whose retry window ends while its receiver is failing is given up, not kept forever', async () => {
    handler = (_request, response) => response.writeHead(503).end();
    const sender = dispatcher({ retryHours: 1, circuitFailures: 1, circuitCooldownMs: 50 * 60_000 });
    await enqueue('task_w1.1', `${base}/hook`);
    clock += 30 * 60_000;
    await sender.runOnce();
    await enqueue('task_w2.1', `${base}/hook`);
    clock += 5_000;
    // The circuit reopens for a trial only after task_w1's hour: it dies without another connection; task_w2's hour ends later, it waits.
    await sender.runOnce();
    expect(received).toHaveLength(1);
    expect(await row('task_w1.1')).toMatchObject({ status: 'dead', attempts: 1 });
    expect((await row('task_w1.1')).last_error).toMatch(/^gave up after 1 attempts over 1 h; the receiver kept failing; last: the receiver answered HTTP 503/);
    expect((await row('task_w2.1')).status).toBe('pending');
  });
});
