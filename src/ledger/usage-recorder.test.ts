import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { UsageRepository, UsageRow } from '../store/usage-repository.js';
import { UsageRecorder } from './usage-recorder.js';

function row(id: string): UsageRow {
  return {
    request_id: id,
    key_id: 'k',
    surface: 'openai',
    operation: 'chat',
    model: 'm',
    channel: 'c',
    provider: 'openai',
    upstream_model: 'm',
    outcome: 'ok',
    stream: 0,
    input_tokens: 1,
    output_tokens: 1,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    units: 0,
    cost_nusd: 0,
    latency_ms: 1,
    created_at: 0,
  };
}

class FlakyRepository {
  written: UsageRow[][] = [];
  failNext = 0;
  async insertMany(rows: UsageRow[]): Promise<void> {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('database down');
    }
    this.written.push(rows);
  }
}

describe('UsageRecorder', () => {
  const logger = pino({ level: 'silent' });

  it('writes queued rows in one batch per flush', async () => {
    const repo = new FlakyRepository();
    const recorder = new UsageRecorder(repo as unknown as UsageRepository, logger);
    recorder.record(row('a'));
    recorder.record(row('b'));
    await recorder.flush();
    expect(repo.written.map((batch) => batch.map((r) => r.request_id))).toEqual([['a', 'b']]);
    expect(recorder.pending).toBe(0);
  });

  it('keeps rows when a write fails and writes them with the next flush, in order', async () => {
    const repo = new FlakyRepository();
    repo.failNext = 1;
    const recorder = new UsageRecorder(repo as unknown as UsageRepository, logger);
    recorder.record(row('a'));
    await recorder.flush();
    expect(recorder.pending).toBe(1);
    recorder.record(row('b'));
    await recorder.close();
    expect(repo.written.flat().map((r) => r.request_id)).toEqual(['a', 'b']);
  });

  it('keeps every row queued while the database cannot be reached (finding 1: only a refused row is dead-lettered)', async () => {
    const repo = new FlakyRepository();
    const down = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    repo.insertMany = async () => {
      throw down;
    };
    const recorder = new UsageRecorder(repo as unknown as UsageRepository, logger);
    recorder.record(row('a'));
    recorder.record(row('b'));
    await recorder.flush();
    await recorder.flush();
    expect(recorder.pending).toBe(2);
    expect(recorder.deadLettered).toBe(0);
  });

  it('dead-letters a row the database refuses for its data, writes the rows around it, and keeps the queue flowing (finding 1)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gengate-dead-letter-'));
    try {
      const repo = new FlakyRepository();
      const write = repo.insertMany.bind(repo);
      repo.insertMany = async (rows: UsageRow[]) => {
        if (rows.some((r) => r.model.includes('\u0000'))) throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
        await write(rows);
      };
      const file = join(dir, 'usage-dead-letter.jsonl');
      const recorder = new UsageRecorder(repo as unknown as UsageRepository, logger, { deadLetterFile: file });
      recorder.record(row('a'));
      recorder.record({ ...row('bad'), model: 'x\u0000y' });
      recorder.record(row('c'));
      await recorder.flush();
      expect(repo.written.flat().map((r) => r.request_id)).toEqual(['a', 'c']);
      expect(recorder.deadLettered).toBe(1);
      expect(recorder.pending).toBe(0);
      const line = JSON.parse(readFileSync(file, 'utf8'));
      expect(line).toMatchObject({ error: 'invalid byte sequence for encoding "UTF8": 0x00', r: { request_id: 'bad', model: 'x\u0000y' } });
      recorder.record(row('d'));
      await recorder.flush();
      expect(repo.written.flat().map((r) => r.request_id)).toEqual(['a', 'c', 'd']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('close() writes rows recorded while a flush was running', async () => {
    const repo = new FlakyRepository();
    const recorder = new UsageRecorder(repo as unknown as UsageRepository, logger);
    recorder.record(row('a'));
    const first = recorder.flush();
    recorder.record(row('b'));
    await first;
    await recorder.close();
    expect(repo.written.flat().map((r) => r.request_id)).toEqual(['a', 'b']);
  });

  describe('with a journal', () => {
    const journalText = (dir: string) =>
      readdirSync(dir)
        .map((name) => readFileSync(join(dir, name), 'utf8'))
        .join('');

    it('journals the open call, then its row before record() resolves, and only then queues the row', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gengate-recorder-'));
      try {
        const repo = new FlakyRepository();
        const recorder = new UsageRecorder(repo as unknown as UsageRepository, logger, { journalDir: dir });
        recorder.start();
        recorder.begin({ request_id: 'a', key_id: 'k', surface: 'openai', operation: 'chat', model: 'm', stream: false, created_at: 0 });
        const recorded = recorder.record(row('a'));
        expect(recorder.pending).toBe(0);
        await recorded;
        expect(
          journalText(dir)
            .split('\n')
            .filter(Boolean)
            .map((line) => Object.keys(JSON.parse(line))[0]),
        ).toEqual(['o', 'r']);
        expect(recorder.pending).toBe(1);
        expect(recorder.openCalls).toBe(0);
        await recorder.close();
        expect(repo.written.flat().map((r) => r.request_id)).toEqual(['a']);
        expect(readdirSync(dir)).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('writes a row at once when no other call is open, and at the end of the turn (with the others) otherwise', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gengate-recorder-'));
      const open = (id: string) => ({ request_id: id, key_id: 'k', surface: 'openai', operation: 'chat', model: 'm', stream: true, created_at: 0 });
      try {
        const recorder = new UsageRecorder(new FlakyRepository() as unknown as UsageRepository, logger, { journalDir: dir });
        recorder.start();
        const lines = () => journalText(dir).split('\n').filter(Boolean).length;
        const microtasks = async () => {
          for (let i = 0; i < 5; i++) await Promise.resolve();
        };
        recorder.begin(open('a'));
        recorder.begin(open('b'));
        await new Promise((resolve) => setImmediate(resolve));
        expect(lines()).toBe(2);
        let aWritten = false;
        void recorder.record(row('a')).then(() => (aWritten = true));
        await microtasks();
        expect([aWritten, lines()]).toEqual([false, 2]);
        await new Promise((resolve) => setImmediate(resolve));
        expect([aWritten, lines()]).toEqual([true, 3]);
        let bWritten = false;
        void recorder.record(row('b')).then(() => (bWritten = true));
        await microtasks();
        expect([bWritten, lines()]).toEqual([true, 4]);
        await recorder.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("writes a lazy open line with its call's row when the call ends soon, and within the interval when it does not", async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gengate-recorder-'));
      const open = (id: string) => ({ request_id: id, key_id: 'k', surface: 'openai', operation: 'embed', model: 'm', stream: false, created_at: 0 });
      try {
        const recorder = new UsageRecorder(new FlakyRepository() as unknown as UsageRepository, logger, { journalDir: dir, intervalMs: 50 });
        recorder.start();
        // Each line is {"o": open} or {"r": row}: the kind and the request id, in file order.
        const kinds = () =>
          journalText(dir)
            .split('\n')
            .filter(Boolean)
            .map((line) => Object.entries(JSON.parse(line) as Record<string, { request_id: string }>)[0])
            .map(([kind, entry]) => `${kind}:${entry.request_id}`);
        void recorder.begin(open('quick'), { lazily: true });
        await new Promise((resolve) => setImmediate(resolve));
        expect(kinds()).toEqual([]);
        await recorder.record(row('quick'));
        expect(kinds()).toEqual(['o:quick', 'r:quick']);
        let slowJournaled = false;
        void recorder.begin(open('slow'), { lazily: true }).then(() => (slowJournaled = true));
        await new Promise((resolve) => setTimeout(resolve, 120));
        expect([slowJournaled, kinds()]).toEqual([true, ['o:quick', 'r:quick', 'o:slow']]);
        await recorder.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('leaves the journal for the next start when a call is still open at close', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'gengate-recorder-'));
      try {
        const repo = new FlakyRepository();
        const recorder = new UsageRecorder(repo as unknown as UsageRepository, logger, { journalDir: dir });
        recorder.start();
        recorder.begin({ request_id: 'b', key_id: 'k', surface: 'openai', operation: 'chat', model: 'm', stream: true, created_at: 0 });
        await recorder.close();
        const next = new UsageRecorder(repo as unknown as UsageRepository, logger, { journalDir: dir });
        expect(await next.recover()).toMatchObject({ files: 1, interrupted: 1 });
        expect(repo.written.flat().map((r) => `${r.request_id}:${r.outcome}`)).toEqual(['b:interrupted']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
});
