import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeOpenAIUpstream, startFakeOpenAIUpstream } from '../fakes/fake-openai-upstream.js';
import { openaiUpChannel } from '../helpers/fake-channels.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { AdminClient, signedInClient } from './admin-client.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

const MASTER = 'gg-master-models-test-0123456789';
let upstream: FakeOpenAIUpstream;
let running: RunningGateway;
let admin: AdminClient;
let member: AdminClient;

/** One chat call through the OpenAI surface, and the cost its usage row was billed. */
async function chatCost(): Promise<number> {
  const response = await fetch(`${running.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${running.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'textmodel-b-4', messages: [{ role: 'user', content: 'price me' }] }),
  });
  expect(response.status).toBe(200);
  const requestId = response.headers.get('x-request-id');
  await running.gateway.recorder.flush();
  const row = (await running.gateway.usage.recent(20)).find((r) => r.request_id === requestId);
  expect(row).toBeDefined();
  return row?.cost_nusd as number;
}

const modelOf = async (client: AdminClient, id: string): Promise<Answer> => (await client.call('GET', '/models')).body.data.find((m: Answer) => m.id === id);

beforeAll(async () => {
  upstream = await startFakeOpenAIUpstream();
  running = await startGateway({ masterKey: MASTER, channels: [openaiUpChannel(upstream)] });
  admin = await signedInClient(running, 'models-admin@example.com', 'admin');
  member = await signedInClient(running, 'models-member@example.com', 'member');
});
afterAll(async () => {
  await running.close();
  await upstream.close();
});

describe('admin API: models and prices', () => {
  it('lists the catalog with prices and the channels serving each model', async () => {
    const answer = await member.call('GET', '/models');
    expect(answer.status).toBe(200);
    const b4 = answer.body.data.find((m: Answer) => m.id === 'textmodel-b-4');
    expect(b4).toMatchObject({ ownedBy: 'openai', operations: ['chat'], price: { input: 30, output: 60 }, channels: ['openai-up'], overridden: false });
    // Nothing real serves it: the sandbox fallback does.
    const image = answer.body.data.find((m: Answer) => m.id === 'black-forest-labs/flux-schnell');
    expect(image.channels).toEqual(['sandbox']);
  });

  it('an override changes the price of the next call without a restart, and DELETE restores it', async () => {
    const before = await chatCost();
    expect(before).toBeGreaterThan(0);
    const put = await admin.call('PUT', '/models/textmodel-b-4', { price: { input: 60, output: 120 }, displayName: 'B4 (doubled)' });
    expect(put.status).toBe(200);
    expect(put.body.model).toMatchObject({ id: 'textmodel-b-4', displayName: 'B4 (doubled)', price: { input: 60, output: 120 }, overridden: true });
    expect(await chatCost()).toBe(before * 2);
    expect((await modelOf(member, 'textmodel-b-4')).overridden).toBe(true);

    const removed = await admin.call('DELETE', '/models/textmodel-b-4');
    expect(removed.status).toBe(204);
    expect(await chatCost()).toBe(before);
    expect(await modelOf(member, 'textmodel-b-4')).toMatchObject({ displayName: 'Text model B 4', overridden: false });
    expect((await admin.call('DELETE', '/models/textmodel-b-4')).status).toBe(404);

    const audit = await admin.call('GET', '/audit?action=model.update');
    expect(audit.body.data[0]).toMatchObject({ target: 'textmodel-b-4', details: { change: { price: { input: 60, output: 120 } } } });
    expect((await admin.call('GET', '/audit?action=model.reset')).body.data).toHaveLength(1);
  });

  it('adds a model (ids with a slash too), served by the sandbox fallback at once, and removes it again', async () => {
    const id = 'acme/new-model';
    const path = `/models/${encodeURIComponent(id)}`;
    expect((await admin.call('PUT', path, { displayName: 'New' })).status).toBe(400);
    const added = await new AdminClient(running.url, MASTER).call('PUT', path, { operations: ['chat'], ownedBy: 'acme', price: { input: 1, output: 2 } });
    expect(added.status).toBe(200);
    expect(added.body.model).toMatchObject({ id, operations: ['chat'], channels: ['sandbox'], overridden: true });
    const chat = await fetch(`${running.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: id, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(chat.status).toBe(200);
    expect((await admin.call('DELETE', path)).status).toBe(204);
    expect(await modelOf(member, id)).toBeUndefined();
  });

  it('refuses a member, and bad prices and operations', async () => {
    const denied = await member.call('PUT', '/models/textmodel-b-4', { price: { input: 0 } });
    expect(denied.status).toBe(403);
    expect((await member.call('DELETE', '/models/textmodel-b-4')).status).toBe(403);
    for (const body of [
      { price: { input: -1 } },
      { price: { output: 1e12 } },
      { price: { input: 'free' } },
      { price: { bogus: 1 } },
      // Finer than a micro-dollar per million tokens, or than a nano-dollar per unit: no integer price holds it.
      { price: { input: 0.0000001 } },
      { price: { perUnit: 0.0000000005 } },
      { operations: ['teleport'] },
      { operations: [] },
      {},
      { displayName: 'x'.repeat(500) },
    ]) {
      const answer = await admin.call('PUT', '/models/textmodel-b-4', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error.code).toBeTruthy();
    }
    expect((await modelOf(member, 'textmodel-b-4')).overridden).toBe(false);
  });
});
