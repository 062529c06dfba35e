/**
 * Background responses survive `kill -9`: a real gateway process is killed while a background
 * response runs (mid-stream, on SQLite) or just after it was accepted (on PostgreSQL), a new
 * process starts on the same database, takes the run over once the dead one's lease ran out
 * (`tasks.leaseMs`, short here), runs it again and completes it. The client resumes the stream
 * from its cursor with no sequence number repeated or skipped, and the response is billed once:
 * the cut attempt's call row is `interrupted` (cost 0), the re-run's is the one `ok` row.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDatabase, type TempDatabase } from '../helpers/postgres.js';
import { type GatewayProcess, MASTER_KEY, startGatewayProcess } from './gateway-process.js';
import { readUsage } from './read-usage.js';

const MODEL = 'textmodel-b-4o-mini';
const LEASE_YAML = 'tasks:\n  leaseMs: 1500\n';

const dirs: string[] = [];
const databases: TempDatabase[] = [];
const processes: GatewayProcess[] = [];
afterAll(async () => {
  for (const process of processes) if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const database of databases) await database.drop();
});

function clientOf(gateway: GatewayProcess): OpenAI {
  return new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: MASTER_KEY, maxRetries: 0 });
}

async function start(dataDir: string, databaseUrl: string): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess({ dataDir, databaseUrl, tokensPerSecond: 25, extraYaml: LEASE_YAML, startTimeoutMs: 120_000 });
  processes.push(gateway);
  return gateway;
}

async function kill(gateway: GatewayProcess): Promise<void> {
  gateway.child.kill('SIGKILL');
  expect((await gateway.exited).signal).toBe('SIGKILL');
}

async function stop(gateway: GatewayProcess): Promise<void> {
  gateway.child.kill('SIGTERM');
  expect(await gateway.exited, gateway.output()).toEqual({ code: 0, signal: null });
}

async function pollUntilDone(client: OpenAI, id: string, timeoutMs = 40_000): Promise<OpenAI.Responses.Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await client.responses.retrieve(id);
    if (response.status !== 'queued' && response.status !== 'in_progress') return response;
    if (Date.now() > deadline) throw new Error(`still ${response.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every usage row of the response's attempts: the creating request's id, then `.2`, `.3` for re-runs. */
async function attemptRows(databaseUrl: string, requestId: string) {
  const rows = await readUsage(databaseUrl);
  return rows
    .filter((row) => row.request_id === requestId || row.request_id.startsWith(`${requestId}.`))
    .sort((a, b) => a.request_id.localeCompare(b.request_id));
}

describe('background responses under kill -9', () => {
  it('SQLite: killed mid-stream, taken over after restart, resumed from the cursor, completed and billed once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gengate-fault-'));
    dirs.push(dataDir);
    const databaseUrl = `sqlite:${join(dataDir, 'gengate.db')}`;
    const input = 'Write a long story about otters who build a boat.';
    // The answer a run that is never cut gives (the sandbox answers the same request the same way).
    const first = await start(dataDir, databaseUrl);
    const { data: stream, response } = await clientOf(first).responses.create({ model: MODEL, input, background: true, stream: true }).withResponse();
    const requestId = response.headers.get('x-request-id')!;
    const seen: ResponseStreamEvent[] = [];
    for await (const event of stream) {
      seen.push(event);
      if (seen.filter((e) => e.type === 'response.output_text.delta').length === 8) break;
    }
    const id = (seen[0] as OpenAI.Responses.ResponseCreatedEvent).response.id;
    await kill(first);

    const second = await start(dataDir, databaseUrl);
    const client = clientOf(second);
    const cursor = seen.at(-1)!.sequence_number;
    const rest: ResponseStreamEvent[] = [];
    for await (const event of await client.responses.retrieve(id, { stream: true, starting_after: cursor })) rest.push(event);
    const all = [...seen, ...rest];
    // Nothing lost or repeated across the crash: the numbers run on from the cursor.
    expect(all.map((e) => e.sequence_number)).toEqual(all.map((_, i) => i));
    expect(all.filter((e) => e.type === 'response.created')).toHaveLength(1);
    const last = all.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(last.type).toBe('response.completed');
    // The re-run started the answer over (its own `response.in_progress`), and the final text is its whole answer.
    const restart = rest.findLastIndex((e) => e.type === 'response.in_progress');
    expect(restart).toBeGreaterThanOrEqual(0);
    const rerunText = rest
      .slice(restart)
      .flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : []))
      .join('');
    const done = await client.responses.retrieve(id);
    expect(done.status).toBe('completed');
    expect(done.output_text).toBe(rerunText);
    expect(done.output_text.length).toBeGreaterThan(0);
    await stop(second);

    const rows = await attemptRows(databaseUrl, requestId);
    expect(rows.map((row) => [row.request_id, row.outcome])).toEqual([
      [requestId, 'interrupted'],
      [`${requestId}.2`, 'ok'],
    ]);
    expect(rows[1].output_tokens).toBe(done.usage?.output_tokens);
    expect(rows.every((row) => row.surface === 'responses')).toBe(true);
  }, 400_000);

  it('PostgreSQL: killed just after the response was accepted, it still completes on the next process, billed once', async () => {
    const database = await createTempDatabase();
    databases.push(database);
    const dataDir = mkdtempSync(join(tmpdir(), 'gengate-fault-'));
    dirs.push(dataDir);
    const first = await start(dataDir, database.url);
    const { data: created, response } = await clientOf(first)
      .responses.create({ model: MODEL, input: 'Describe a lighthouse at night.', background: true })
      .withResponse();
    const requestId = response.headers.get('x-request-id')!;
    expect(created.status).toBe('queued');
    await kill(first);

    const second = await start(dataDir, database.url);
    const client = clientOf(second);
    expect(['queued', 'in_progress']).toContain((await client.responses.retrieve(created.id)).status);
    const done = await pollUntilDone(client, created.id);
    expect(done.status).toBe('completed');
    expect(done.output_text.length).toBeGreaterThan(0);
    await stop(second);

    const rows = await attemptRows(database.url, requestId);
    // The first attempt may have been killed before or after its call was admitted: no row, or an interrupted one.
    expect(rows.filter((row) => row.outcome === 'ok').map((row) => row.request_id)).toEqual([`${requestId}.2`]);
    expect(rows.filter((row) => row.outcome !== 'ok').every((row) => row.outcome === 'interrupted' && row.request_id === requestId)).toBe(true);
    expect(rows.find((row) => row.outcome === 'ok')?.output_tokens).toBe(done.usage?.output_tokens);
  }, 400_000);
});
