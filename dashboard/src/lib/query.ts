/** Query strings and the values forms turn into request bodies. */

export type QueryValue = string | number | boolean | null | undefined;

/** `?a=1&b=x` from the values that are set (empty strings, null and undefined are left out). */
export function buildQuery(params: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === null || value === undefined || value === '') continue;
    search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

const DAY_MS = 86_400_000;

/** Midnight UTC of the day holding `ms`. */
export function startOfUtcDay(ms: number): number {
  return Math.floor(ms / DAY_MS) * DAY_MS;
}

/** The last `days` days, today included: from the start of the first to now. */
export function lastDays(days: number, now: number): { from: number; to: number } {
  return { from: startOfUtcDay(now) - (days - 1) * DAY_MS, to: now };
}

/** Milliseconds of a `YYYY-MM-DD` date input (midnight UTC), or null when it is not one. */
export function parseDateInput(value: string): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isFinite(ms) && new Date(ms).getUTCDate() === Number(match[3]) ? ms : null;
}

/** A custom range of whole days, both ends included; null when a date is missing or the range is backwards. */
export function dayRange(fromDate: string, toDate: string): { from: number; to: number } | null {
  const from = parseDateInput(fromDate);
  const to = parseDateInput(toDate);
  if (from === null || to === null || to < from) return null;
  return { from, to: to + DAY_MS - 1 };
}

/** The end of the given day (UTC): a key expiring "on" a date works through that day. */
export function expiryFromDateInput(value: string): number | null {
  const day = parseDateInput(value);
  return day === null ? null : day + DAY_MS - 1;
}

/** `a, b,,c` → `['a','b','c']`; nothing → null (no restriction). Bounded to 200 names. */
export function parseNameList(text: string): string[] | null {
  const names = [
    ...new Set(
      text
        .split(/[,\n]/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  return names.length ? names.slice(0, 200) : null;
}

/** `YYYY-MM-DD` (UTC) for a date input's value. */
export function formatDateInput(ms: number): string {
  return new Date(startOfUtcDay(ms)).toISOString().slice(0, 10);
}
