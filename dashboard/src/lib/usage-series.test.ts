import { describe, expect, it } from 'vitest';
import { dailySeries, dayOf } from './usage-series.js';

const DAY = 86_400_000;
const d = (day: number) => Date.UTC(2025, 0, day);

describe('dayOf', () => {
  it('reads day groups given as dates, timestamps or digit strings', () => {
    expect(dayOf('2025-01-03')).toBe(d(3));
    expect(dayOf('2025-01-03T00:00:00Z')).toBe(d(3));
    expect(dayOf(d(3) + 5000)).toBe(d(3));
    expect(dayOf(String(d(3)))).toBe(d(3));
    expect(dayOf('gpt-4o')).toBeNull();
    expect(dayOf(null)).toBeNull();
  });
});

describe('dailySeries', () => {
  it('one point per day of the range, in seconds, missing days as zero, same days summed', () => {
    const rows = [
      { group: '2025-01-03', requests: 5, costNusd: 500_000_000 },
      { group: d(1), requests: 2, costNusd: 100_000_000 },
      { group: '2025-01-03', requests: 1, costNusd: 250_000_000 },
      { group: 'not a day', requests: 100, costNusd: 100 },
    ];
    expect(dailySeries(rows, d(1), d(4) - 1)).toEqual([
      [d(1) / 1000, d(2) / 1000, d(3) / 1000],
      [2, 0, 6],
      [0.1, 0, 0.75],
    ]);
  });

  it('is bounded to about 400 days', () => {
    const [xs] = dailySeries([], d(1) - 1000 * DAY, d(1));
    expect(xs).toHaveLength(401);
  });
});
