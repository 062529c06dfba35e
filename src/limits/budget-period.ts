/**
 * The calendar period a budget is in at a moment: a day, a week (Monday first) or a month, in
 * the budget's IANA time zone, or all time. Built on `Intl` so daylight-saving days are 23 or
 * 25 hours long, as the wall clock says.
 */
import type { BudgetPeriod } from './contract.js';

export interface PeriodBounds {
  /** Epoch ms of the period's first instant (0 for lifetime). */
  start: number;
  /** Epoch ms of the next period's first instant (null for lifetime). */
  end: number | null;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Whether `timeZone` is a zone this runtime knows. */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

export function periodBounds(period: BudgetPeriod, timeZone: string, now: number): PeriodBounds {
  if (period === 'lifetime') return { start: 0, end: null };
  const local = wallClock(timeZone, now);
  let startDay: { y: number; m: number; d: number };
  let endDay: { y: number; m: number; d: number };
  if (period === 'day') {
    startDay = local;
    endDay = addDays(local, 1);
  } else if (period === 'week') {
    const weekday = (new Date(Date.UTC(local.y, local.m - 1, local.d)).getUTCDay() + 6) % 7; // Monday 0
    startDay = addDays(local, -weekday);
    endDay = addDays(startDay, 7);
  } else {
    startDay = { y: local.y, m: local.m, d: 1 };
    endDay = local.m === 12 ? { y: local.y + 1, m: 1, d: 1 } : { y: local.y, m: local.m + 1, d: 1 };
  }
  return { start: midnight(timeZone, startDay), end: midnight(timeZone, endDay) };
}

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (formatters.size > 256) formatters.clear();
    formatters.set(timeZone, found);
  }
  return found;
}

interface WallClock {
  y: number;
  m: number;
  d: number;
  h: number;
  min: number;
  s: number;
}

function wallClock(timeZone: string, at: number): WallClock {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(at))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return { y: parts.year, m: parts.month, d: parts.day, h: parts.hour, min: parts.minute, s: parts.second };
}

function addDays(day: { y: number; m: number; d: number }, days: number): { y: number; m: number; d: number } {
  const date = new Date(Date.UTC(day.y, day.m - 1, day.d) + days * DAY_MS);
  return { y: date.getUTCFullYear(), m: date.getUTCMonth() + 1, d: date.getUTCDate() };
}

/** The epoch ms of 00:00 local time on `day` in `timeZone` (the first instant of that day, should midnight not exist). */
function midnight(timeZone: string, day: { y: number; m: number; d: number }): number {
  const naive = Date.UTC(day.y, day.m - 1, day.d);
  let guess = naive;
  // Two corrections reach the offset in force at that local midnight, DST changes included.
  for (let i = 0; i < 3; i++) {
    const seen = wallClock(timeZone, guess);
    const seenAsUtc = Date.UTC(seen.y, seen.m - 1, seen.d, seen.h, seen.min, seen.s);
    const next = guess - (seenAsUtc - naive);
    if (next === guess) break;
    guess = next;
  }
  return guess;
}
