/**
 * Finding 11: `kill -9` under mixed load, then a restart. Every request the client saw complete
 * has exactly one usage row, every request that was admitted and cut is closed as
 * `interrupted`, and nothing is counted twice — on SQLite and on PostgreSQL.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDatabase, type TempDatabase } from '../helpers/postgres.js';
import { startGatewayProcess } from './gateway-process.js';
import { runMixedLoad, type Seen } from './mixed-load.js';
import { byRequestId, readUsage } from './read-usage.js';

const dirs: string[] = [];
const databases: TempDatabase[] = [];
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const database of databases) await database.drop();
});

const KINDS = ['chat', 'openai-stream', 'anthropic-stream', 'gemini-stream', 'embed'] as const;
/** How long the load may take to reach the moment to kill (a loaded host compiles and answers slowly). */
const LOAD_DEADLINE_MS = 60_000;

async function killUnderLoadAndRestart(databaseUrl: string, dataDir: string): Promise<void> {
  // 40 tokens at 40 a second: chats and streams take about a second, so many are in flight at any moment.
  const first = await startGatewayProcess({ dataDir, databaseUrl, tokensPerSecond: 40 });
  const stop = new AbortController();
  const load = runMixedLoad(first.url, 3, stop.signal);
  // Kill after at least 2.6 s of load, once every kind has completed at least once and answers are
  // mid-stream: on a loaded host the first answers of each kind may take longer than any fixed time.
  const earliest = Date.now() + 2_600;
  const ready = () => Date.now() >= earliest && KINDS.every((kind) => load.seen.some((s) => s.kind === kind && s.completed)) && load.midAnswer() >= 3;
  const until = Date.now() + LOAD_DEADLINE_MS;
  while (!ready() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  first.child.kill('SIGKILL');
  stop.abort();
  expect((await first.exited).signal).toBe('SIGKILL');
  const seen: Seen[] = await load.done;

  const second = await startGatewayProcess({ dataDir, databaseUrl, tokensPerSecond: 40 });
  second.child.kill('SIGTERM');
  expect(await second.exited, second.output()).toEqual({ code: 0, signal: null });

  const rows = await readUsage(databaseUrl);
  const rowsOf = byRequestId(rows);
  const completed = seen.filter((s) => s.completed);
  const cut = seen.filter((s) => !s.completed && s.requestId !== undefined);
  // The load really was mixed, and the kill really cut streams.
  for (const kind of KINDS) {
    expect(completed.filter((s) => s.kind === kind).length, kind).toBeGreaterThan(0);
  }
  expect(cut.length).toBeGreaterThan(0);

  for (const request of completed) {
    const found = rowsOf.get(request.requestId!) ?? [];
    expect(
      found.map((r) => r.outcome),
      `${request.kind} ${request.requestId}`,
    ).toEqual(['ok']);
    if (request.kind !== 'embed') expect(found[0].output_tokens).toBeGreaterThan(0);
  }
  for (const request of cut) {
    // Cut by the kill: closed as interrupted — or `ok` when its row was journaled but its last bytes never left.
    const found = rowsOf.get(request.requestId!) ?? [];
    expect(found, `${request.kind} ${request.requestId}`).toHaveLength(1);
    expect(['interrupted', 'ok']).toContain(found[0].outcome);
  }
  const interrupted = rows.filter((r) => r.outcome === 'interrupted');
  expect(interrupted.length).toBeGreaterThanOrEqual(cut.filter((s) => s.kind !== 'chat').length / 2);
  for (const row of interrupted) {
    expect(row.key_id).toBe('master');
    expect(['openai', 'anthropic', 'gemini']).toContain(row.surface);
    expect(['chat', 'embed']).toContain(row.operation);
    expect(row.model).not.toBe('');
  }
  // No request counted twice, and no row for a request nobody sent.
  expect(rowsOf.size).toBe(rows.length);
  expect(rows.length).toBeLessThanOrEqual(seen.length);
  // The restart folded the journal in and the clean stop left nothing behind.
  expect(readdirSync(join(dataDir, 'usage-journal'))).toEqual([]);
}

describe('kill -9 under mixed load', () => {
  it('finding 11: SQLite — every completed request has its usage row, every cut one is closed as interrupted', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gengate-fault-'));
    dirs.push(dataDir);
    await killUnderLoadAndRestart(`sqlite:${join(dataDir, 'gengate.db')}`, dataDir);
  }, 360_000);

  it('finding 11: PostgreSQL — every completed request has its usage row, every cut one is closed as interrupted', async () => {
    const database = await createTempDatabase();
    databases.push(database);
    const dataDir = mkdtempSync(join(tmpdir(), 'gengate-fault-'));
    dirs.push(dataDir);
    await killUnderLoadAndRestart(database.url, dataDir);
  }, 360_000);
});
