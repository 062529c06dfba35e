import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { type AdminClient, signedInClient } from './admin-client.js';

// biome-ignore lint/suspicious/noExplicitAny: events are read field by field, as the dashboard would
type Event = any;

let running: RunningGateway;
let member: AdminClient & { accountId: string };
let restricted: AdminClient & { accountId: string };

/** Posts to the playground as the client's browser; the events when it streamed, else the JSON error. */
async function play(client: AdminClient, body: unknown): Promise<{ status: number; type: string; events: Event[]; error?: Event }> {
  const response = await fetch(`${running.url}/admin/v1/playground/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: client.cookie ?? '', 'x-csrf-token': client.csrfToken ?? '' },
    body: JSON.stringify(body),
  });
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  if (!type.startsWith('text/event-stream')) return { status: response.status, type, events: [], error: JSON.parse(text).error };
  const events = text
    .split('\n\n')
    .filter((chunk) => chunk.startsWith('data: '))
    .map((chunk) => JSON.parse(chunk.slice('data: '.length)));
  return { status: response.status, type, events };
}

beforeAll(async () => {
  // Slow enough that a long answer is still streaming when the browser leaves.
  running = await startGateway({ masterKey: 'gg-master-playground-test-0123456789', sandbox: { tokensPerSecond: 400 } });
  member = await signedInClient(running, 'play-member@example.com', 'member');
  restricted = await signedInClient(running, 'play-restricted@example.com', 'member');
  await running.gateway.accounts.update(restricted.accountId, { models: ['textmodel-a-*'] });
});
// A stream this test abandons (undici abort after the first chunk) leaves its server socket open until the drain
// deadline, on every streaming route (/v1/chat/completions does the same): close with a short drain.
afterAll(() => running.gateway.close({ drainTimeoutMs: 1_000 }), 60_000);

describe('admin API: playground', () => {
  it('streams sandbox text, then done with usage and route, and records one usage row for the account', async () => {
    const played = await play(member, {
      model: 'textmodel-b-4',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Say something about tides.' },
      ],
      maxTokens: 64,
    });
    expect(played.status).toBe(200);
    expect(played.type).toMatch(/^text\/event-stream/);
    const texts = played.events.filter((e) => e.type === 'text');
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.map((e) => e.text).join('').length).toBeGreaterThan(0);
    const done = played.events.at(-1);
    expect(done).toMatchObject({ type: 'done', route: { channel: 'sandbox', provider: 'sandbox', simulated: true } });
    expect(done.usage.inputTokens).toBeGreaterThan(0);
    expect(done.usage.outputTokens).toBeGreaterThan(0);

    await running.gateway.recorder.flush();
    const rows = (await running.gateway.usage.recent(50)).filter((row) => row.key_id === `playground:${member.accountId}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ surface: 'playground', model: 'textmodel-b-4', outcome: 'ok', account_id: member.accountId });
    expect(rows[0].output_tokens).toBe(done.usage.outputTokens);
  });

  it("refuses a model outside the account's models before streaming, and allows one inside", async () => {
    const refused = await play(restricted, { model: 'textmodel-b-4', messages: [{ role: 'user', content: 'hi' }] });
    expect(refused.status).toBe(403);
    expect(refused.error).toMatchObject({ code: 'model_not_allowed' });
    expect(refused.error.message).toContain('textmodel-b-4');
    const allowed = await play(restricted, { model: 'textmodel-a-haiku-4-5-20251001', messages: [{ role: 'user', content: 'hi' }] });
    expect(allowed.status).toBe(200);
    expect(allowed.events.at(-1).type).toBe('done');
    const unknown = await play(member, { model: 'no-such-model', messages: [{ role: 'user', content: 'hi' }] });
    expect(unknown.status).toBe(404);
  });

  it('answers bad input with a 400', async () => {
    const user = { role: 'user', content: 'hi' };
    for (const body of [
      {},
      { model: 'textmodel-b-4' },
      { model: 'textmodel-b-4', messages: [] },
      { model: 'textmodel-b-4', messages: Array.from({ length: 51 }, () => user) },
      { model: 'textmodel-b-4', messages: [{ role: 'user', content: 'x'.repeat(32_769) }] },
      { model: 'textmodel-b-4', messages: [{ role: 'tool', content: 'hi' }] },
      { model: 'textmodel-b-4', messages: [user], maxTokens: 5000 },
      { model: 'textmodel-b-4', messages: [{ role: 'system', content: 'only a system prompt' }] },
      { model: 'textmodel-b-4', messages: [user], temperature: 2 },
    ]) {
      const answer = await play(member, body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.error.code).toBeTruthy();
    }
  });

  it('ends the call when the browser goes away', async () => {
    const controller = new AbortController();
    await startGatewayPlaygroundStream(controller.signal);
    expect(running.gateway.services.lifecycle.active).toBe(1);
    controller.abort();
    for (let i = 0; i < 100 && running.gateway.services.lifecycle.active > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(running.gateway.services.lifecycle.active).toBe(0);
    await running.gateway.recorder.flush();
    const [last] = (await running.gateway.usage.recent(1)).filter((row) => row.key_id === `playground:${member.accountId}`);
    expect(last?.outcome).toBe('client_closed');
  });
});

/** Starts a long playground answer and resolves once its first bytes arrived. */
async function startGatewayPlaygroundStream(signal: AbortSignal): Promise<void> {
  const response = await fetch(`${running.url}/admin/v1/playground/chat`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: member.cookie ?? '', 'x-csrf-token': member.csrfToken ?? '' },
    body: JSON.stringify({ model: 'textmodel-b-4', messages: [{ role: 'user', content: 'Write a long story.' }], maxTokens: 4096 }),
    signal,
  });
  expect(response.status).toBe(200);
  await response.body?.getReader().read();
}
