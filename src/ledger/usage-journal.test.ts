import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { UsageJournal, type JournalSegment } from './usage-journal.js';

const logger = pino({ level: 'silent' });
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function journal(carry: string[] = [], maxSegmentBytes?: number): { journal: UsageJournal; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'gengate-journal-'));
  dirs.push(dir);
  return { journal: new UsageJournal({ dir, pid: 42, instance: 'abc', logger, carryOver: () => carry, maxSegmentBytes }), dir };
}

const contents = (dir: string): string =>
  readdirSync(dir)
    .sort()
    .map((name) => readFileSync(join(dir, name), 'utf8'))
    .join('');

describe('UsageJournal', () => {
  it("writes a turn's lines together at the end of the turn, then tells who waited", async () => {
    const { journal: j, dir } = journal();
    const seen: string[] = [];
    j.append('a\n', 'turn', () => seen.push(contents(dir)));
    j.append('b\n', 'turn');
    expect(contents(dir)).toBe('');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(['a\nb\n']);
    expect(readdirSync(dir)).toEqual(['42.abc.0.journal']);
    j.close(true);
  });

  it('writes a prompt line, with the lines queued before it, once the current microtasks have run (not at the end of the turn)', async () => {
    const { journal: j, dir } = journal();
    const order: string[] = [];
    j.append('open\n', 'turn');
    j.append('row-1\n', 'prompt', () => order.push(`row-1 written: ${JSON.stringify(contents(dir))}`));
    j.append('row-2\n', 'prompt', () => order.push('row-2 written'));
    expect(contents(dir)).toBe('');
    setImmediate(() => order.push('end of turn'));
    await Promise.resolve();
    expect(order).toEqual(['row-1 written: "open\\nrow-1\\nrow-2\\n"', 'row-2 written']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(contents(dir)).toBe('open\nrow-1\nrow-2\n');
    j.close(true);
  });

  it('writes a lazy line only with the next write, whoever asks for it', async () => {
    const { journal: j, dir } = journal();
    let written = false;
    j.append('open\n', 'lazy', () => (written = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect([written, contents(dir)]).toEqual([false, '']);
    j.append('row\n', 'prompt');
    await Promise.resolve();
    expect([written, contents(dir)]).toEqual([true, 'open\nrow\n']);
    j.append('open-2\n', 'lazy');
    j.flushSync();
    expect(contents(dir)).toBe('open\nrow\nopen-2\n');
    j.close(true);
  });

  it('starts a new segment with the open calls once the current one is large, and deletes the old one when the database has its rows', () => {
    const { journal: j, dir } = journal(['open-x\n'], 10);
    let segment: JournalSegment | undefined;
    j.append('row-1-----\n', 'turn', (s) => {
      segment = s;
      s.pendingRows++;
    });
    j.flushSync();
    expect(readdirSync(dir).sort()).toEqual(['42.abc.0.journal', '42.abc.1.journal']);
    expect(readFileSync(join(dir, '42.abc.1.journal'), 'utf8')).toBe('open-x\n');
    j.settled(segment!, 1);
    expect(readdirSync(dir)).toEqual(['42.abc.1.journal']);
    j.close(true);
  });

  it('keeps its files at close while rows are not in the database', () => {
    const { journal: j, dir } = journal();
    j.append('row\n', 'turn', (s) => s.pendingRows++);
    j.close(true);
    expect(contents(dir)).toBe('row\n');
  });

  it('deletes its files at close when everything is in the database', () => {
    const { journal: j, dir } = journal();
    j.append('row\n', 'turn');
    j.close(true);
    expect(existsSync(dir) && readdirSync(dir)).toEqual([]);
  });
});
