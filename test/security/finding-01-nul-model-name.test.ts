/**
 * Issue 23, finding 1: a NUL byte in a model name stopped usage recording for every tenant on
 * PostgreSQL (the refused row blocked every later batch) and made the next start fail (the
 * journal replay died on the same row). On SQLite and on PostgreSQL: control characters in model
 * ids are the client's 400 in each surface's shape, other keys' usage keeps being recorded, a row
 * the database refuses anyway is dead-lettered while the rows around it are written, a journal
 * holding such a row is replayed at start (the gateway listens, the row is reported), and an
 * imgtask `state` with a NUL is a 400 before any task exists.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlCharacterAt } from '../../src/core/client-strings.js';
import { rowLine } from '../../src/ledger/journal-entries.js';
import { DEAD_LETTER_FILE_NAME } from '../../src/ledger/usage-dead-letters.js';
import type { UsageRow } from '../../src/store/usage-repository.js';
import { type GatewayProcess, MASTER_KEY, startGatewayProcess } from '../faults/gateway-process.js';
import { createTempDatabase, type TempDatabase } from '../helpers/postgres.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';

interface Backend {
  name: string;
  url(): Promise<string>;
  /** Model values this database refuses in a usage row. */
  refusedModels: Array<string | null>;
}

const root = mkdtempSync(join(tmpdir(), 'gengate-finding-01-'));
const databases: TempDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
  rmSync(root, { recursive: true, force: true });
});

const BACKENDS: Backend[] = [
  { name: 'SQLite', url: async () => `sqlite:${join(mkdtempSync(join(root, 'sqlite-')), 'gengate.db')}`, refusedModels: [null] },
  {
    name: 'PostgreSQL',
    url: async () => {
      const database = await createTempDatabase();
      databases.push(database);
      return database.url;
    },
    refusedModels: ['gemini-x\u0000y', null],
  },
];

function usageRow(requestId: string, model: string | null): UsageRow {
  return {
    request_id: requestId,
    key_id: 'key_other',
    surface: 'openai',
    operation: 'chat',
    model: model as string,
    channel: 'wild',
    provider: 'sandbox',
    upstream_model: 'gemini-x',
    outcome: 'ok',
    stream: 0,
    input_tokens: 3,
    output_tokens: 5,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    units: 0,
    cost_nusd: 250_000_000,
    latency_ms: 7,
    created_at: Date.now(),
    account_id: null,
  };
}

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

describe.each(BACKENDS)('finding 1: a NUL in a model name ($name)', (backend) => {
  let gw: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway({
      databaseUrl: await backend.url(),
      // A wildcard pattern, as every environment preset has: any `gemini-…` id is served.
      channels: [
        { name: 'wild', provider: 'sandbox', models: ['gemini-*'] },
        { name: 'tasks', provider: 'sandbox', models: ['imgtask-*'] },
      ],
    });
  });
  afterAll(async () => {
    await gw?.close();
  });

  const storedRequestIds = async () =>
    (await gw.gateway.store.db.selectFrom('usage_records').select('request_id').execute()).map((row) => row.request_id).sort();

  it('finding 1: a model id with a control character is a 400 in every surface, and other keys keep being billed', async () => {
    const attacker = gw.key;
    const bearer = { authorization: `Bearer ${attacker}` };
    for (const model of ['gemini-x\u0000y', 'gemini-x\u001b[31m', 'gemini-x\u007f', 'gemini-x\u0085']) {
      const answers = [
        await post(`${gw.url}/v1/chat/completions`, bearer, { model, messages: [{ role: 'user', content: 'hi' }] }),
        await post(`${gw.url}/v1/messages`, { 'x-api-key': attacker }, { model, max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] }),
        await post(`${gw.url}/v1/embeddings`, bearer, { model, input: 'hi' }),
        await post(
          `${gw.url}/v1beta/models/${encodeURIComponent(model)}:generateContent`,
          { 'x-goog-api-key': attacker },
          { contents: [{ parts: [{ text: 'hi' }] }] },
        ),
      ];
      for (const answer of answers) {
        expect(answer.status, answer.text).toBe(400);
        expect(answer.text).toMatch(/model must not contain control characters \(found U\+00[0-9A-F]{2} at position 8\)/);
        // The character is named, never echoed (raw or JSON-escaped).
        expect(controlCharacterAt(answer.text)).toBe(-1);
        expect(answer.text).not.toMatch(/\\u00[0-9a-f]{2}/i);
      }
    }
    const openai = JSON.parse((await post(`${gw.url}/v1/chat/completions`, bearer, { model: 'gemini-x\u0000y', messages: [] })).text);
    expect(openai.error).toMatchObject({ type: 'invalid_request_error', param: 'model' });

    const other = await gw.createKey({ name: 'another tenant' });
    const before = (await storedRequestIds()).length;
    for (let i = 0; i < 3; i++) {
      const answer = await post(
        `${gw.url}/v1/chat/completions`,
        { authorization: `Bearer ${other}` },
        { model: 'gemini-2.5-flash', messages: [{ role: 'user', content: `call ${i}` }] },
      );
      expect(answer.status).toBe(200);
    }
    await gw.gateway.recorder.flush();
    expect((await storedRequestIds()).length).toBe(before + 3);
    expect(gw.gateway.recorder.pending).toBe(0);
  });

  it('finding 1: a row the database refuses is dead-lettered while the rows around it are written', async () => {
    const { recorder } = gw.gateway;
    const deadLetterFile = join(gw.gateway.config.dataDir, DEAD_LETTER_FILE_NAME);
    const deadBefore = recorder.deadLettered;
    const refusedIds = backend.refusedModels.map((_, i) => `req_refused_${i}`);
    const rows = [usageRow('req_before', 'gemini-a')];
    backend.refusedModels.forEach((model, i) => rows.push(usageRow(refusedIds[i], model), usageRow(`req_between_${i}`, 'gemini-b')));
    for (const row of rows) void recorder.record(row);
    await recorder.flush();

    const stored = await storedRequestIds();
    expect(stored).toEqual(expect.arrayContaining(['req_before', ...backend.refusedModels.map((_, i) => `req_between_${i}`)]));
    for (const id of refusedIds) expect(stored).not.toContain(id);
    expect(recorder.deadLettered - deadBefore).toBe(refusedIds.length);
    expect(recorder.pending).toBe(0);

    // The refused rows are kept, escaped, where an operator finds them.
    const lines = readFileSync(deadLetterFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    for (const [i, id] of refusedIds.entries()) {
      const line = lines.find((entry) => entry.r.request_id === id);
      expect(line).toMatchObject({ refused_at: expect.any(Number), error: expect.any(String), r: { model: backend.refusedModels[i], cost_nusd: 250_000_000 } });
    }
    expect(readFileSync(deadLetterFile, 'utf8')).not.toContain('\u0000');

    // The queue is not blocked: the next row is written with the next flush.
    await recorder.record(usageRow('req_after', 'gemini-c'));
    await recorder.flush();
    expect(await storedRequestIds()).toContain('req_after');
  });

  it('finding 1: an imgtask state with a NUL is a 400 before any task exists', async () => {
    const tasksBefore = await gw.gateway.store.db.selectFrom('tasks').select('id').execute();
    const answer = await post(`${gw.url}/imgtask/submit/imagine`, { authorization: `Bearer ${gw.key}` }, { prompt: 'a lighthouse', state: 'order\u000042' });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.text)).toEqual({ code: 4, description: 'state must not contain U+0000 (at position 5)', result: null });
    expect(await gw.gateway.store.db.selectFrom('tasks').select('id').execute()).toEqual(tasksBefore);
    // Tabs and line breaks in free text are fine.
    const fine = await post(
      `${gw.url}/imgtask/submit/imagine`,
      { authorization: `Bearer ${gw.key}` },
      { prompt: 'a lighthouse', state: 'order\t42\nline two' },
    );
    expect(fine.status).toBe(200);
  });
});

describe.each(BACKENDS)('finding 1: the journal replay at start ($name)', (backend) => {
  let gateway: GatewayProcess | undefined;
  afterAll(async () => {
    if (gateway && gateway.child.exitCode === null) {
      gateway.child.kill('SIGTERM');
      await gateway.exited;
    }
  });

  it('finding 1: a journal holding a row the database cannot store is replayed, the gateway listens, and the row is reported', async () => {
    const dataDir = mkdtempSync(join(root, 'replay-'));
    const journals = join(dataDir, 'usage-journal');
    mkdirSync(journals, { recursive: true });
    // The journal of a process that is gone (no such pid), as a release before this fix could leave it.
    writeFileSync(
      join(journals, '999999999.deadbeef.0.journal'),
      rowLine(usageRow('req_journal_good', 'gemini-a')) +
        rowLine(usageRow('req_journal_nul', 'gemini-x\u0000y')) +
        rowLine(usageRow('req_journal_tail', 'gemini-b')),
    );
    gateway = await startGatewayProcess({ dataDir, databaseUrl: await backend.url(), tokensPerSecond: 100_000 });
    const health = await fetch(`${gateway.url}/healthz`);
    expect(health.status).toBe(200);

    const admin = await fetch(`${gateway.url}/admin/v1/usage/records?limit=10`, { headers: { authorization: `Bearer ${MASTER_KEY}` } });
    expect(admin.status).toBe(200);
    const stored = ((await admin.json()) as { data: Array<{ requestId: string }> }).data.map((record) => record.requestId);
    expect(stored).toEqual(expect.arrayContaining(['req_journal_good', 'req_journal_tail']));
    if (backend.name === 'PostgreSQL') {
      // PostgreSQL cannot hold the row: skipped, logged and kept in the dead-letter file.
      expect(stored).not.toContain('req_journal_nul');
      expect(gateway.output()).toContain('usage rows refused by the database were dead-lettered');
      const line = JSON.parse(readFileSync(join(dataDir, DEAD_LETTER_FILE_NAME), 'utf8').trim());
      expect(line.r).toMatchObject({ request_id: 'req_journal_nul', model: 'gemini-x\u0000y' });
    } else {
      // SQLite stores it: nothing is lost either way.
      expect(stored).toContain('req_journal_nul');
    }
  }, 60_000);
});
