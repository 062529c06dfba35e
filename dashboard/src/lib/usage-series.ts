/** Usage rows grouped by day, as the series the chart draws (seconds on x, gaps filled with zero). */

const DAY_MS = 86_400_000;

export interface DayPoint {
  requests: number;
  /** Summed as exact integers (nUSD), turned into dollars only for the chart. */
  costNusd: number;
}

/** A day group's start in ms: a number (ms) or a `YYYY-MM-DD…` string; null otherwise. */
export function dayOf(group: unknown): number | null {
  if (typeof group === 'number' && Number.isFinite(group)) return Math.floor(group / DAY_MS) * DAY_MS;
  if (typeof group !== 'string') return null;
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(group);
  if (match) return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return /^\d+$/.test(group) ? dayOf(Number(group)) : null;
}

/** `[xs, requests, cost in USD]` for uPlot, one point per day from `from` to `to` (at most 400 days). */
export function dailySeries(rows: { group: unknown; requests: number; costNusd: number }[], from: number, to: number): [number[], number[], number[]] {
  const byDay = new Map<number, DayPoint>();
  for (const row of rows) {
    const day = dayOf(row.group);
    if (day === null) continue;
    const point = byDay.get(day) ?? { requests: 0, costNusd: 0 };
    point.requests += row.requests;
    point.costNusd += row.costNusd;
    byDay.set(day, point);
  }
  const days = [...byDay.keys()];
  let first = Math.floor(from / DAY_MS) * DAY_MS;
  let last = Math.floor(to / DAY_MS) * DAY_MS;
  if (days.length) {
    first = Math.min(first, ...days);
    last = Math.max(last, ...days);
  }
  if ((last - first) / DAY_MS > 400) first = last - 400 * DAY_MS;
  const xs: number[] = [];
  const requests: number[] = [];
  const cost: number[] = [];
  for (let day = first; day <= last; day += DAY_MS) {
    const point = byDay.get(day);
    xs.push(day / 1000);
    requests.push(point?.requests ?? 0);
    cost.push((point?.costNusd ?? 0) / 1_000_000_000);
  }
  return [xs, requests, cost];
}
