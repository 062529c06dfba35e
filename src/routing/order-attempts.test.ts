import { describe, expect, it } from 'vitest';
import { orderAttempts, weightedShuffle, type Selectable } from './order-attempts.js';

const ch = (name: string, priority = 0, weight = 1, enabled = true): Selectable => ({ name, priority, weight, enabled });
const never = () => false;
const names = (list: Selectable[]) => list.map((c) => c.name);

/** A scripted random source, so orders are exact. */
function scripted(...values: number[]): () => number {
  let i = 0;
  return () => values[i++ % values.length];
}

describe('orderAttempts', () => {
  it('tries higher priority tiers first, then lower ones', () => {
    const plan = orderAttempts([ch('low', 0), ch('high', 10), ch('mid', 5)], 5, never, scripted(0));
    expect(names(plan)).toEqual(['high', 'mid', 'low']);
  });

  it('never includes a disabled channel, even when nothing else is left', () => {
    expect(names(orderAttempts([ch('a', 0, 1, false), ch('b')], 5, never))).toEqual(['b']);
    expect(orderAttempts([ch('a', 0, 1, false)], 5, never)).toEqual([]);
  });

  it('never repeats a channel within one request', () => {
    for (let seed = 0; seed < 50; seed++) {
      const plan = orderAttempts([ch('a'), ch('b'), ch('c'), ch('d', 1)], 10, never);
      expect(new Set(names(plan)).size).toBe(plan.length);
      expect(plan).toHaveLength(4);
    }
  });

  it('puts channels with an open circuit after every healthy one, whatever their priority', () => {
    const plan = orderAttempts([ch('broken-high', 10), ch('ok-low', 0)], 5, (n) => n === 'broken-high', scripted(0));
    expect(names(plan)).toEqual(['ok-low', 'broken-high']);
  });

  it('bounds the number of attempts, keeping at least one', () => {
    expect(orderAttempts([ch('a', 3), ch('b', 2), ch('c', 1)], 2, never)).toHaveLength(2);
    expect(orderAttempts([ch('a')], 0, never)).toHaveLength(1);
  });

  it('keeps priority order stable after a channel of the top tier is disabled', () => {
    const channels = [ch('t1', 10, 1, false), ch('t2', 5), ch('t3', 1)];
    expect(names(orderAttempts(channels, 5, never, scripted(0.99)))).toEqual(['t2', 't3']);
  });
});

describe('weightedShuffle', () => {
  it('picks by weight: with random 0.7 of total 10, the channel covering 7..10 comes first', () => {
    const order = weightedShuffle([ch('a', 0, 3), ch('b', 0, 4), ch('c', 0, 3)], scripted(0.75, 0));
    // 0.75 * 10 = 7.5: a covers [0,3), b [3,7), c [7,10) → c; then of a,b (total 7) 0 → a.
    expect(names(order)).toEqual(['c', 'a', 'b']);
  });

  it('shares traffic in proportion to weight', () => {
    const counts: Record<string, number> = { a: 0, b: 0 };
    let x = 0;
    const uniform = () => {
      x = (x + 0.618033988749895) % 1;
      return x;
    };
    for (let i = 0; i < 10_000; i++) counts[weightedShuffle([ch('a', 0, 1), ch('b', 0, 3)], uniform)[0].name]++;
    expect(counts.b / 10_000).toBeGreaterThan(0.72);
    expect(counts.b / 10_000).toBeLessThan(0.78);
  });

  it('puts zero-weight channels last, in their configured order', () => {
    expect(names(weightedShuffle([ch('z1', 0, 0), ch('a'), ch('z2', 0, 0)], scripted(0)))).toEqual(['a', 'z1', 'z2']);
  });
});
