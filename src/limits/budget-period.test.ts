import { describe, expect, it } from 'vitest';
import { isKnownTimeZone, periodBounds } from './budget-period.js';

const at = (iso: string) => Date.parse(iso);

describe('periodBounds', () => {
  it('cuts UTC days, Monday-first weeks and calendar months', () => {
    const now = at('2026-11-27T16:45:00Z'); // a Friday
    expect(periodBounds('day', 'UTC', now)).toEqual({ start: at('2026-11-27T00:00:00Z'), end: at('2026-11-28T00:00:00Z') });
    expect(periodBounds('week', 'UTC', now)).toEqual({ start: at('2026-11-23T00:00:00Z'), end: at('2026-11-30T00:00:00Z') });
    expect(periodBounds('month', 'UTC', now)).toEqual({ start: at('2026-11-01T00:00:00Z'), end: at('2026-12-01T00:00:00Z') });
    expect(periodBounds('month', 'UTC', at('2026-12-31T23:59:59Z'))).toEqual({ start: at('2026-12-01T00:00:00Z'), end: at('2027-01-01T00:00:00Z') });
    expect(periodBounds('lifetime', 'UTC', now)).toEqual({ start: 0, end: null });
  });

  it('follows the wall clock of the time zone, daylight saving included', () => {
    // 02:00 UTC on Nov 27 is still Nov 26 in New York (EST, UTC−5).
    expect(periodBounds('day', 'America/New_York', at('2026-11-27T02:00:00Z'))).toEqual({
      start: at('2026-11-26T05:00:00Z'),
      end: at('2026-11-27T05:00:00Z'),
    });
    // The day clocks go back (Nov 1, 2026) is 25 hours long: EDT midnight to EST midnight.
    const fallBack = periodBounds('day', 'America/New_York', at('2026-11-01T12:00:00Z'));
    expect(fallBack).toEqual({ start: at('2026-11-01T04:00:00Z'), end: at('2026-11-02T05:00:00Z') });
    // A month in Tokyo starts at 15:00 UTC the day before.
    expect(periodBounds('month', 'Asia/Tokyo', at('2026-11-30T16:00:00Z')).start).toBe(at('2026-11-30T15:00:00Z'));
  });

  it('knows real zones and refuses made-up ones', () => {
    expect(isKnownTimeZone('Europe/Paris')).toBe(true);
    expect(isKnownTimeZone('Mars/Olympus')).toBe(false);
  });
});
