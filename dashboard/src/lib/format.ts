/** Display formats, all in UTC so every reader of a page (and its CSV) sees the same days. */

const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

export function formatInt(value: number | null | undefined): string {
  return value === null || value === undefined || !Number.isFinite(value) ? '—' : integer.format(value);
}

/** Dollars with cents; amounts under a cent keep enough digits to not read as zero. */
export function formatUsd(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (value === 0) return '$0.00';
  const abs = Math.abs(value);
  const digits = abs >= 0.01 ? 2 : abs >= 0.0001 ? 4 : 6;
  return `${value < 0 ? '-' : ''}$${abs.toFixed(digits)}`;
}

/** An amount the API gives in nUSD (10⁻⁹ USD, an exact integer), shown in dollars as `formatUsd` does. */
export function formatNusdAsUsd(nusd: number | null | undefined): string {
  return nusd === null || nusd === undefined ? '—' : formatUsd(nusd / 1_000_000_000);
}

export function formatMs(value: number | null | undefined): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '—';
  if (value < 1000) return `${Math.round(value)} ms`;
  return `${(value / 1000).toFixed(value < 10_000 ? 2 : 1)} s`;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** `YYYY-MM-DD` of a Unix-millisecond time, in UTC. */
export function formatDate(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

/** `YYYY-MM-DD HH:MM:SS UTC`. */
export function formatDateTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  return `${formatDate(ms)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;
}

/** A price object of unknown shape, as compact text (`input 2.5 / output 10 per 1M tokens`…). */
export function formatPrice(price: unknown): string {
  if (price === null || price === undefined) return '—';
  if (typeof price !== 'object') return String(price);
  const parts = Object.entries(price as Record<string, unknown>)
    .filter(([, v]) => v !== null && v !== undefined && typeof v !== 'object')
    .map(([k, v]) => `${k} ${String(v)}`);
  return parts.length ? parts.join(', ') : '—';
}
