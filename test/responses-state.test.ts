/**
 * The Responses API's conversation state outlives a gateway and is shared by replicas: a
 * conversation (with reasoning the fake Anthropic signed, sealed under the gateway's secret key)
 * is continued after a restart on SQLite and on PostgreSQL, and on PostgreSQL a follow-up sent to
 * a second gateway the instant the first one's stream ends finds the response.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeThinkingSignature } from './fakes/fake-anthropic-thinking.js';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from './fakes/fake-anthropic-upstream.js';
import { anthropicUpChannel } from './helpers/fake-channels.js';
import { createTempDatabase, type TempDatabase } from './helpers/postgres.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

const SECRET = Buffer.alloc(32, 9).toString('base64');
const CLAUDE = 'textmodel-a-sonnet-4-20250514';
const THOUGHT = 'The user wrote to me, so I will answer what they said.';

let anthropic: FakeAnthropicUpstream;
beforeAll(async () => {
  anthropic = await startFakeAnthropicUpstream();
});
afterAll(() => anthropic?.close());

function start(databaseUrl: string, key?: { name: string; accountId: string }): Promise<RunningGateway> {
  return startGateway({ databaseUrl, secretKey: SECRET, channels: [anthropicUpChannel(anthropic)], ...(key ? { key } : {}) });
}

function clientOf(gw: RunningGateway, key: string): OpenAI {
  return new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: key, maxRetries: 0 });
}

/** What the fake received as the first answer of the conversation: its signed thinking must be there, unchanged. */
function replayedThinking(): unknown {
  const sent = anthropic.requests.at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
  return sent.messages[1].content;
}

async function survivesRestart(databaseUrl: string): Promise<void> {
  const first = await start(databaseUrl, { name: 'alice', accountId: 'acct-restart' });
  const key = first.key;
  let created: OpenAI.Responses.Response;
  try {
    created = await clientOf(first, key).responses.create({ model: CLAUDE, input: 'Hello before the restart', reasoning: { effort: 'low' } });
    expect(created.output.some((item) => item.type === 'reasoning')).toBe(true);
  } finally {
    await first.close();
  }
  const second = await start(databaseUrl);
  try {
    const client = clientOf(second, key);
    const retrieved = await client.responses.retrieve(created.id);
    expect(retrieved.output).toEqual(created.output);
    const next = await client.responses.create({ model: CLAUDE, input: 'And after it?', previous_response_id: created.id, reasoning: { effort: 'low' } });
    expect(next.status).toBe('completed');
    // The sealed reasoning opened under the same secret after the restart.
    expect(replayedThinking()).toEqual(expect.arrayContaining([{ type: 'thinking', thinking: THOUGHT, signature: fakeThinkingSignature(THOUGHT) }]));
    expect((await client.responses.inputItems.list(next.id)).data).toHaveLength(1);
  } finally {
    await second.close();
  }
}

describe('on SQLite', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'gengate-responses-state-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a conversation survives a gateway restart, sealed reasoning included', async () => {
    await survivesRestart(`sqlite:${join(dir, 'gengate.db')}`);
  }, 60_000);
});

describe('on PostgreSQL', () => {
  let database: TempDatabase;
  beforeAll(async () => {
    database = await createTempDatabase();
  });
  afterAll(() => database?.drop());

  it('a conversation survives a gateway restart, sealed reasoning included', async () => {
    await survivesRestart(database.url);
  }, 60_000);

  it('two gateways on one database: a follow-up to the other replica the instant a stream ends finds the response', async () => {
    const a = await start(database.url, { name: 'replica-user', accountId: 'acct-replicas' });
    const b = await start(database.url);
    try {
      const onA = clientOf(a, a.key);
      const onB = clientOf(b, a.key);
      const streamed = await onA.responses.stream({ model: CLAUDE, input: 'Start on replica A', reasoning: { effort: 'low' } }).finalResponse();
      const next = await onB.responses.create({
        model: CLAUDE,
        input: 'Continue on replica B',
        previous_response_id: streamed.id,
        reasoning: { effort: 'low' },
      });
      expect(next.status).toBe('completed');
      expect(replayedThinking()).toEqual(expect.arrayContaining([{ type: 'thinking', thinking: THOUGHT, signature: fakeThinkingSignature(THOUGHT) }]));
      await onB.responses.delete(streamed.id);
      await expect(onA.responses.retrieve(streamed.id)).rejects.toMatchObject({ status: 404 });
      // A key of another account, made on B, sees nothing of A's.
      const stranger = await b.createKey({ name: 'stranger', accountId: 'acct-other' });
      await expect(clientOf(a, stranger).responses.retrieve(next.id)).rejects.toMatchObject({ status: 404 });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);
});
