import { describe, expect, it } from 'vitest';
import { insertIsolating } from './insert-isolating.js';

class Refused extends Error {
  code = '22021';
}
const isRefused = (error: unknown) => error instanceof Refused;

describe('insertIsolating', () => {
  it('writes a good batch in one write', async () => {
    const writes: number[][] = [];
    const outcome = await insertIsolating([1, 2, 3], async (items) => void writes.push(items), isRefused);
    expect(writes).toEqual([[1, 2, 3]]);
    expect(outcome).toEqual({ written: [1, 2, 3], refused: [], unwritten: [] });
  });

  it('isolates the rows the database refuses by halving, and writes all the others, in order', async () => {
    const stored: number[] = [];
    let writes = 0;
    const items = Array.from({ length: 1000 }, (_, i) => i);
    const outcome = await insertIsolating(
      items,
      async (part) => {
        writes++;
        if (part.includes(137) || part.includes(901)) throw new Refused('invalid byte sequence for encoding "UTF8": 0x00');
        stored.push(...part);
      },
      isRefused,
    );
    expect(outcome.refused.map(({ item }) => item)).toEqual([137, 901]);
    expect(outcome.refused[0].error).toBeInstanceOf(Refused);
    expect(stored).toEqual(items.filter((i) => i !== 137 && i !== 901));
    expect(outcome.written).toEqual(stored);
    expect(outcome.unwritten).toEqual([]);
    // About 2 log2(n) writes per refused row, not one per row.
    expect(writes).toBeLessThan(50);
  });

  it('stops at any other failure and hands back what was not written, in order', async () => {
    const down = new Error('connect ECONNREFUSED 127.0.0.1:5432');
    let calls = 0;
    const outcome = await insertIsolating(
      [1, 2, 3, 4],
      async (part) => {
        calls++;
        if (calls === 1) throw new Refused('refused');
        if (part.includes(1)) return;
        throw down;
      },
      isRefused,
    );
    expect(outcome).toEqual({ written: [1, 2], refused: [], unwritten: [3, 4], error: down });
  });
});
