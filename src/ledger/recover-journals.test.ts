import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type OpenedStore } from '../store/open-store.js';
import { UsageRepository, type UsageRow } from '../store/usage-repository.js';
import { openLine, rowLine, type OpenCall } from './journal-entries.js';
import { recoverJournals } from './recover-journals.js';

function open(id: string): OpenCall {
  return { request_id: id, key_id: 'k1', surface: 'openai', operation: 'chat', model: 'm', stream: true, created_at: 1_000 };
}
function row(id: string): UsageRow {
  return {
    request_id: id,
    key_id: 'k1',
    surface: 'openai',
    operation: 'chat',
    model: 'm',
    channel: 'c',
    provider: 'sandbox',
    upstream_model: 'm',
    outcome: 'ok',
    stream: 1,
    input_tokens: 3,
    output_tokens: 4,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    units: 0,
    cost_nusd: 0,
    latency_ms: 10,
    created_at: 1_010,
  };
}

describe('recoverJournals', () => {
  let dir: string;
  let store: OpenedStore;
  let usage: UsageRepository;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gengate-recover-'));
    store = await openStore(`sqlite:${join(dir, 'db.sqlite')}`);
    usage = new UsageRepository(store.db, store.sqlite);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const stored = async () =>
    (await store.db.selectFrom('usage_records').select(['request_id', 'outcome']).orderBy('request_id').execute()).map((r) => `${r.request_id}:${r.outcome}`);

  it('inserts journaled rows, closes open calls as interrupted, skips a torn last line, and deletes the files', async () => {
    const journals = join(dir, 'journals');
    const file = join(journals, '1.dead.0.journal');
    mkdirSync(journals);
    writeFileSync(file, openLine(open('a')) + openLine(open('b')) + rowLine(row('a')) + openLine(open('c')));
    appendFileSync(file, rowLine(row('c')).slice(0, 40));
    const result = await recoverJournals(journals, usage, { isGone: () => true });
    expect(result).toEqual({ files: 1, rows: 1, interrupted: 2, skippedLines: 1, deadLettered: 0 });
    expect(await stored()).toEqual(['a:ok', 'b:interrupted', 'c:interrupted']);
    expect(readdirSync(journals)).toEqual([]);
  });

  it('never inserts a row twice: rows the database already holds are skipped', async () => {
    const journals = join(dir, 'journals');
    mkdirSync(journals);
    await usage.insertMany([row('a')]);
    writeFileSync(join(journals, '1.dead.0.journal'), openLine(open('a')) + rowLine(row('a')) + rowLine(row('b')));
    writeFileSync(join(journals, '1.dead.1.journal'), openLine(open('a')));
    await recoverJournals(journals, usage, { isGone: () => true });
    await usage.insertMany([row('b')]);
    expect(await stored()).toEqual(['a:ok', 'b:ok']);
  });

  it('skips a file another process starting on the same folder folded and deleted after the listing', async () => {
    const journals = join(dir, 'journals');
    mkdirSync(journals);
    writeFileSync(join(journals, '1.dead.0.journal'), openLine(open('a')) + rowLine(row('a')));
    writeFileSync(join(journals, '1.dead.1.journal'), openLine(open('b')) + rowLine(row('b')));
    // Listed as gone, then taken by the other process before this one reads it.
    const isGone = (file: { path: string }) => {
      if (file.path.endsWith('.1.journal')) unlinkSync(file.path);
      return true;
    };
    const result = await recoverJournals(journals, usage, { isGone });
    expect(result.rows).toBe(1);
    expect(await stored()).toEqual(['a:ok']);
    expect(readdirSync(journals)).toEqual([]);
  });

  it('leaves the journal of a writer that still runs', async () => {
    const journals = join(dir, 'journals');
    mkdirSync(journals);
    writeFileSync(join(journals, '77.live.0.journal'), openLine(open('a')));
    const result = await recoverJournals(journals, usage, { isGone: (f) => f.pid !== 77 });
    expect(result.files).toBe(0);
    expect(await stored()).toEqual([]);
    expect(readdirSync(journals)).toEqual(['77.live.0.journal']);
  });
});
