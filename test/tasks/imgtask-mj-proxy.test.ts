/**
 * The imgtask family through a `midjourney-proxy` channel, against the faithful fake proxy,
 * over real HTTP: results copied into the gateway (still served after the proxy's links
 * expired), the client's notifyHook delivered by the gateway itself (signed, with `state`,
 * never forwarded upstream), the proxy's refusals in the family's shape, and the ledger of
 * each task balanced (reserve, then one settle or refund).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/tasks/webhook-signature.js';
import { FAKE_MJ_SECRET, type FakeMjProxy, startFakeMjProxy } from '../fakes/fake-mj-proxy.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

let gw: RunningGateway;
let proxy: FakeMjProxy;
let receiver: Server;
let receiverUrl: string;
const hooks: Array<{ body: string; signature: string; delivery: string }> = [];

async function call(path: string, body?: unknown): Promise<{ status: number; json: Answer }> {
  const response = await fetch(`${gw.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

async function untilDone(id: string): Promise<Answer> {
  for (let i = 0; i < 300; i++) {
    const { json } = await call(`/imgtask/task/${id}/fetch`);
    if (json.status === 'SUCCESS' || json.status === 'FAILURE') return json;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${id} did not finish`);
}

async function ledgerOf(id: string): Promise<Array<{ kind: string; amount_nusd: number }>> {
  return gw.gateway.tasks.repository.ledger(id);
}

beforeAll(async () => {
  proxy = await startFakeMjProxy({ taskMs: 400 });
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      hooks.push({ body, signature: String(req.headers['x-gengate-signature']), delivery: String(req.headers['x-gengate-delivery']) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  gw = await startGateway({
    media: { allowPrivateUrls: true },
    channels: [
      { name: 'mj', provider: 'midjourney-proxy', baseUrl: proxy.url, apiKey: FAKE_MJ_SECRET, models: ['imgtask-*'], options: { pollIntervalMs: 100 } },
    ],
  });
});
afterAll(async () => {
  await gw?.close();
  await proxy?.close();
  receiver?.close();
});

describe('imgtask through a midjourney-proxy channel', () => {
  it('copies the result into the gateway, where it outlives the proxy link, and settles the price once', async () => {
    const submitted = await call('/imgtask/submit/imagine', { prompt: 'harbour at night' });
    expect(submitted.json.code).toBe(1);
    const record = await untilDone(submitted.json.result);
    expect(record.status).toBe('SUCCESS');
    expect(record.imageUrl.startsWith(gw.url)).toBe(true);
    expect(record.buttons.length).toBeGreaterThanOrEqual(8);
    proxy.expireResults();
    const image = await fetch(record.imageUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    const seed = await call(`/imgtask/task/${record.id}/image-seed`);
    expect(seed.json.code).toBe(1);
    expect(seed.json.result).toBe(proxy.tasks.get([...proxy.tasks.keys()].at(-1) as string)?.seed);
    const entries = await ledgerOf(record.id);
    expect(entries.map((e) => e.kind)).toEqual(['reserve', 'settle']);
    // imgtask-imagine is $0.05 a task: 50,000,000 nUSD.
    expect(entries.map((e) => e.amount_nusd)).toEqual([50_000_000, 50_000_000]);
  });

  it('delivers the record to notifyHook itself, signed, with the state, and never forwards the hook upstream', async () => {
    hooks.length = 0;
    const submitted = await call('/imgtask/submit/imagine', { prompt: 'signed delivery', notifyHook: receiverUrl, state: 'order-42' });
    const id = submitted.json.result;
    await untilDone(id);
    for (let i = 0; i < 100 && !hooks.some((h) => JSON.parse(h.body).status === 'SUCCESS'); i++) await new Promise((r) => setTimeout(r, 50));
    const mine = hooks.filter((h) => JSON.parse(h.body).id === id);
    expect(mine.map((h) => JSON.parse(h.body).status)).toContain('SUCCESS');
    expect(mine.every((h) => JSON.parse(h.body).state === 'order-42')).toBe(true);
    const secret = gw.gateway.tasks.webhookSecret((await gw.gateway.tasks.repository.get(id))!.owner);
    for (const hook of mine) expect(verifyWebhookSignature(secret, hook.signature, hook.body)).toBe(true);
    expect(verifyWebhookSignature(secret, mine[0].signature, `${mine[0].body} `)).toBe(false);
    expect(new Set(mine.map((h) => h.delivery)).size).toBe(mine.length);
    const upstreamSubmit = proxy.submits().at(-1)!;
    expect(JSON.stringify(upstreamSubmit.body)).not.toContain('notifyHook');
    expect(JSON.stringify(upstreamSubmit.body)).not.toContain('order-42');
  });

  it('answers a banned prompt and a full queue in the family shape, charging nothing', async () => {
    const banned = await call('/imgtask/submit/imagine', { prompt: 'a bannedword here' });
    expect(banned.status).toBe(400);
    expect(banned.json.code).toBe(24);
    proxy.nextSubmitCode(23);
    const full = await call('/imgtask/submit/imagine', { prompt: 'queue is full' });
    expect(full.json.code).toBe(23);
    expect(full.status).toBeGreaterThanOrEqual(500);
  });

  it('refunds a task the proxy fails, once', async () => {
    proxy.failNextTask('Job action restricted');
    const submitted = await call('/imgtask/submit/imagine', { prompt: 'will fail' });
    const record = await untilDone(submitted.json.result);
    expect(record).toMatchObject({ status: 'FAILURE', progress: '', failReason: 'Job action restricted' });
    const entries = await ledgerOf(record.id);
    expect(entries.map((e) => e.kind)).toEqual(['reserve', 'refund']);
    expect(entries.map((e) => e.amount_nusd)).toEqual([50_000_000, 50_000_000]);
  });

  it('polls several tasks of the channel in one list-by-condition call', async () => {
    const before = proxy.requests.length;
    const ids = await Promise.all([1, 2, 3, 4].map(async (n) => (await call('/imgtask/submit/imagine', { prompt: `batch ${n}` })).json.result));
    for (const id of ids) expect((await untilDone(id)).status).toBe('SUCCESS');
    const lists = proxy.requests.slice(before).filter((r) => r.path.endsWith('/list-by-condition'));
    expect(lists.some((r) => ((r.body as { ids?: unknown[] }).ids ?? []).length > 1)).toBe(true);
  });
});
