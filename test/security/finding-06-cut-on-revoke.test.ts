/**
 * Finding 6: in-flight streams outlive revocation. With `limits.cutOnRevoke` (the default), a
 * key revoked through the admin API — or its account disabled — ends its streams in flight
 * within a second, with the dialect's own in-stream error event saying why, and a usage row
 * bills what was produced; translated (sandbox) and relayed (pass-through) streams alike, and
 * on another process of the same database. With the option off, the stream runs to its end.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient, signedInClient } from '../admin/admin-client.js';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from '../fakes/fake-anthropic-upstream.js';
import { startFakeGeminiUpstream, type FakeGeminiUpstream } from '../fakes/fake-gemini-upstream.js';
import { startFakeOpenAIUpstream, type FakeOpenAIUpstream } from '../fakes/fake-openai-upstream.js';
import { type ScriptedStream, sseFrames } from '../fakes/scripted-sse.js';
import { type GatewayProcess, MASTER_KEY, startGatewayProcess } from '../faults/gateway-process.js';
import { byRequestId, readUsage } from '../faults/read-usage.js';
import { anthropicUpChannel, geminiUpChannel, openaiUpChannel } from '../helpers/fake-channels.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';

type Dialect = 'openai' | 'anthropic' | 'gemini';

const MASTER = 'gg-master-cut-on-revoke-0123456789';
const PROMPT = 'Tell me a long story about a lighthouse keeper and the sea, with many details.';
const MODELS: Record<Dialect, string> = {
  openai: 'textmodel-b-4o',
  anthropic: 'textmodel-a-haiku-4-5-20251001',
  gemini: 'textmodel-c-2.0-flash',
};

function requestFor(dialect: Dialect, url: string, key: string): [string, RequestInit] {
  const json = { 'content-type': 'application/json' };
  switch (dialect) {
    case 'openai':
      return [
        `${url}/v1/chat/completions`,
        {
          method: 'POST',
          headers: { ...json, authorization: `Bearer ${key}` },
          body: JSON.stringify({ model: MODELS.openai, max_tokens: 60, stream: true, messages: [{ role: 'user', content: PROMPT }] }),
        },
      ];
    case 'anthropic':
      return [
        `${url}/v1/messages`,
        {
          method: 'POST',
          headers: { ...json, 'x-api-key': key, 'anthropic-version': '2023-06-01' },
          body: JSON.stringify({ model: MODELS.anthropic, max_tokens: 60, stream: true, messages: [{ role: 'user', content: PROMPT }] }),
        },
      ];
    case 'gemini':
      return [
        `${url}/v1beta/models/${MODELS.gemini}:streamGenerateContent?alt=sse`,
        {
          method: 'POST',
          headers: { ...json, 'x-goog-api-key': key },
          body: JSON.stringify({ contents: [{ parts: [{ text: PROMPT }] }], generationConfig: { maxOutputTokens: 60 } }),
        },
      ];
  }
}

interface OpenStream {
  requestId: string;
  /** The whole body and when it ended. */
  done: Promise<{ body: string; endedAt: number }>;
}

/** Starts a stream and resolves once its first data frames arrived (the answer is under way). */
async function openStream(dialect: Dialect, url: string, key: string): Promise<OpenStream> {
  const [target, init] = requestFor(dialect, url, key);
  const response = await fetch(target, init);
  if (response.status !== 200) throw new Error(`stream refused: ${response.status} ${await response.text()}`);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let body = '';
  let started!: () => void;
  const firstFrames = new Promise<void>((resolve) => (started = resolve));
  const done = (async () => {
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) return { body, endedAt: Date.now() };
      body += decoder.decode(value, { stream: true });
      if (body.split('data: ').length > 3) started();
    }
  })();
  done.finally(() => started()).catch(() => undefined);
  await firstFrames;
  return { requestId: response.headers.get('x-request-id')!, done };
}

/** The stream's last frame is its dialect's error event, naming the reason. */
function expectDialectError(dialect: Dialect, body: string, reason: RegExp): void {
  const last =
    body
      .trim()
      .split(/\r?\n\r?\n/)
      .at(-1) ?? '';
  if (dialect === 'anthropic') {
    expect(last, body.slice(-400)).toMatch(/^event: error\n/);
    expect(last).toContain('"authentication_error"');
  } else {
    expect(last, body.slice(-400)).toMatch(/^data: \{"error":/);
  }
  expect(last).toMatch(reason);
}

/** Slow upstream answers (one text delta every 100 ms, 6 s in all) for the relayed streams. */
function slowScript(dialect: Dialect): ScriptedStream {
  const words = Array.from({ length: 60 }, (_, i) => `word${i} `);
  if (dialect === 'openai') {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      data: { id: 'chatcmpl-slow', object: 'chat.completion.chunk', created: 1, model: 'gpt-4o', choices: [{ index: 0, delta, finish_reason: finish }] },
    });
    return {
      pauseMs: 100,
      pieces: sseFrames([chunk({ role: 'assistant', content: '' }), ...words.map((text) => chunk({ content: text })), chunk({}, 'stop'), { data: '[DONE]' }]),
    };
  }
  if (dialect === 'anthropic') {
    const message = {
      id: 'msg_slow',
      type: 'message',
      role: 'assistant',
      model: 'claude-haiku-4-5',
      content: [],
      stop_reason: null,
      usage: { input_tokens: 20, output_tokens: 1 },
    };
    return {
      pauseMs: 100,
      pieces: sseFrames([
        { event: 'message_start', data: { type: 'message_start', message } },
        { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
        ...words.map((text) => ({ event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } } })),
        { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
        { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 120 } } },
        { event: 'message_stop', data: { type: 'message_stop' } },
      ]),
    };
  }
  const chunk = (text: string) => ({
    data: { candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0 }], modelVersion: 'gemini-2.0-flash', responseId: 'slow-1' },
  });
  return { pauseMs: 100, pieces: sseFrames(words.map(chunk), '\r\n') };
}

async function usageRow(running: RunningGateway, requestId: string) {
  let row: Awaited<ReturnType<RunningGateway['gateway']['usage']['recent']>>[number] | undefined;
  await expect
    .poll(async () => {
      await running.gateway.recorder.flush();
      row = (await running.gateway.usage.recent(50)).find((r) => r.request_id === requestId);
      return row?.outcome;
    })
    .toBeDefined();
  return row!;
}

describe('finding 6: cut on revoke', () => {
  let sandbox: RunningGateway;
  let relay: RunningGateway;
  let sandboxOff: RunningGateway;
  let openai: FakeOpenAIUpstream;
  let anthropic: FakeAnthropicUpstream;
  let gemini: FakeGeminiUpstream;

  beforeAll(async () => {
    [openai, anthropic, gemini] = await Promise.all([startFakeOpenAIUpstream(), startFakeAnthropicUpstream(), startFakeGeminiUpstream()]);
    // 60 tokens at 10 a second: six seconds, far beyond the one second the cut may take.
    const slowSandbox = { tokensPerSecond: 10, firstTokenDelayMs: 0 };
    [sandbox, relay, sandboxOff] = await Promise.all([
      startGateway({ masterKey: MASTER, sandbox: slowSandbox }),
      startGateway({ masterKey: MASTER, channels: [openaiUpChannel(openai), anthropicUpChannel(anthropic), geminiUpChannel(gemini)] }),
      startGateway({ masterKey: MASTER, sandbox: slowSandbox, limits: { cutOnRevoke: false } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([sandbox.close(), relay.close(), sandboxOff.close()]);
    await Promise.all([openai.close(), anthropic.close(), gemini.close()]);
  });

  const cases: Array<[Dialect, 'translated' | 'passthrough']> = [
    ['openai', 'translated'],
    ['anthropic', 'translated'],
    ['gemini', 'translated'],
    ['openai', 'passthrough'],
    ['anthropic', 'passthrough'],
    ['gemini', 'passthrough'],
  ];
  for (const [dialect, route] of cases) {
    it(`finding 6: a ${route} ${dialect} stream ends within a second of its key's revocation, with the dialect's error event, billed for what was produced`, async () => {
      const running = route === 'translated' ? sandbox : relay;
      if (route === 'passthrough') ({ openai, anthropic, gemini })[dialect].replayNext(slowScript(dialect));
      const member = await signedInClient(running, `${dialect}-${route}@example.com`, 'member');
      const created = await member.call('POST', '/keys', { name: 'streaming app' });
      expect(created.status).toBe(201);
      const stream = await openStream(dialect, running.url, created.body.secret);

      const revoked = await member.call('DELETE', `/keys/${created.body.key.id}`);
      expect(revoked.status).toBe(200);
      const revokedAt = Date.now();
      const { body, endedAt } = await stream.done;
      expect(endedAt - revokedAt).toBeLessThan(1_000);
      expectDialectError(dialect, body, /revoked/);

      const row = await usageRow(running, stream.requestId);
      expect(row).toMatchObject({ key_id: created.body.key.id, account_id: member.accountId, outcome: 'authentication', stream: 1 });
      if (route === 'passthrough') expect(row.channel).toBe(`${dialect}-up`);
      expect(row.output_tokens).toBeGreaterThan(0);
      expect(row.input_tokens).toBeGreaterThan(0);
    });
  }

  it("finding 6: disabling the key's account ends its streams within a second, the other account's stream runs on", async () => {
    const member = await signedInClient(sandbox, 'to-disable@example.com', 'member');
    const bystander = await signedInClient(sandbox, 'bystander@example.com', 'member');
    const key = (await member.call('POST', '/keys', { name: 'app' })).body;
    const otherKey = (await bystander.call('POST', '/keys', { name: 'app' })).body;
    const stream = await openStream('anthropic', sandbox.url, key.secret);
    const other = await openStream('openai', sandbox.url, otherKey.secret);

    const disabled = await new AdminClient(sandbox.url, MASTER).call('PATCH', `/accounts/${member.accountId}`, { disabled: true });
    expect(disabled.status).toBe(200);
    const disabledAt = Date.now();
    const { body, endedAt } = await stream.done;
    expect(endedAt - disabledAt).toBeLessThan(1_000);
    expectDialectError('anthropic', body, /account of this API key is disabled/);
    const row = await usageRow(sandbox, stream.requestId);
    expect(row).toMatchObject({ key_id: key.key.id, outcome: 'authentication' });
    expect(row.output_tokens).toBeGreaterThan(0);

    const untouched = await other.done;
    expect(untouched.body.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect((await usageRow(sandbox, other.requestId)).outcome).toBe('ok');
  });

  it('finding 6: with limits.cutOnRevoke off, a revoked key’s stream runs to its end', async () => {
    const member = await signedInClient(sandboxOff, 'kept@example.com', 'member');
    const created = (await member.call('POST', '/keys', { name: 'app' })).body;
    const stream = await openStream('openai', sandboxOff.url, created.secret);
    expect((await member.call('DELETE', `/keys/${created.key.id}`)).status).toBe(200);
    const { body } = await stream.done;
    expect(body.trimEnd().endsWith('data: [DONE]'), body.slice(-300)).toBe(true);
    expect(body).not.toContain('"error"');
    expect((await usageRow(sandboxOff, stream.requestId)).outcome).toBe('ok');
    // New requests are refused all the same.
    const [target, init] = requestFor('openai', sandboxOff.url, created.secret);
    expect((await fetch(target, init)).status).toBe(401);
  });
});

describe('finding 6: cut on revoke across processes', () => {
  const root = mkdtempSync(join(tmpdir(), 'gengate-cut-'));
  const running: GatewayProcess[] = [];
  afterAll(async () => {
    for (const gateway of running) {
      if (gateway.child.exitCode === null) {
        gateway.child.kill('SIGTERM');
        await gateway.exited;
      }
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('finding 6: a key revoked on one process ends its stream on another process of the same SQLite file within a second', async () => {
    const databaseUrl = `sqlite:${join(root, 'shared.db')}`;
    const start = async (name: string): Promise<GatewayProcess> => {
      const dataDir = join(root, name);
      mkdirSync(dataDir, { recursive: true });
      const gateway = await startGatewayProcess({ dataDir, databaseUrl, tokensPerSecond: 10 });
      running.push(gateway);
      return gateway;
    };
    // One after the other: the first applies the migrations.
    const first = await start('a');
    const second = await start('b');
    const admin = new AdminClient(first.url, MASTER_KEY);
    const created = await admin.call('POST', '/keys', { name: 'shared' });
    expect(created.status).toBe(201);

    const stream = await openStream('gemini', second.url, created.body.secret);
    expect((await admin.call('DELETE', `/keys/${created.body.key.id}`)).status).toBe(200);
    const revokedAt = Date.now();
    const { body, endedAt } = await stream.done;
    expect(endedAt - revokedAt).toBeLessThan(1_000);
    expectDialectError('gemini', body, /revoked/);

    let rows = byRequestId(await readUsage(databaseUrl));
    const deadline = Date.now() + 5_000;
    while (!rows.has(stream.requestId) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      rows = byRequestId(await readUsage(databaseUrl));
    }
    const [row] = rows.get(stream.requestId) ?? [];
    expect(row).toMatchObject({ key_id: created.body.key.id, outcome: 'authentication' });
    expect(row.output_tokens).toBeGreaterThan(0);
  }, 120_000);
});
