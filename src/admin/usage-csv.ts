/**
 * A usage report as CSV (RFC 4180: CRLF line ends, fields with a comma, quote or line break
 * quoted, quotes doubled). Text a spreadsheet would run as a formula (starting with = + - @,
 * tab or carriage return) gets a leading apostrophe first — key names and model ids are
 * chosen by users, and an exported file is opened by someone else. Money is exact: `cost_usd`
 * is the integer nUSD as a decimal (trailing zeros dropped: `0.25`, `0.000012345`, never a float's
 * `1e-7` or `0.30000000000000004`), and `cost_nusd` (last, so columns read by position keep their
 * place) is the integer itself; `unpriced` after it counts the calls to models without a price.
 */
import { formatNusd } from '../core/money.js';
import type { UsageReport, UsageReportRow } from '../store/usage-report.js';

const HEADER = [
  'group',
  'label',
  'requests',
  'errors',
  'input_tokens',
  'cache_read_tokens',
  'cache_write_tokens',
  'output_tokens',
  'reasoning_tokens',
  'units',
  'cost_usd',
  'latency_p50_ms',
  'latency_p95_ms',
  'latency_p99_ms',
  'cost_nusd',
  'unpriced',
];

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** nUSD as the shortest exact decimal of USD. */
function exactUsd(nusd: number): string {
  return formatNusd(nusd).replace(/\.?0+$/, '');
}

function cells(row: UsageReportRow): (string | number | null)[] {
  return [
    row.group,
    row.label,
    row.requests,
    row.errors,
    row.inputTokens,
    row.cacheReadTokens,
    row.cacheWriteTokens,
    row.outputTokens,
    row.reasoningTokens,
    row.units,
    exactUsd(row.costNusd),
    row.latencyMs.p50,
    row.latencyMs.p95,
    row.latencyMs.p99,
    row.costNusd,
    row.unpriced,
  ];
}

/** The header, one line per row, then the totals (group `total`). */
export function usageCsv(report: UsageReport): string {
  const lines = [HEADER.join(',')];
  for (const row of report.rows) lines.push(cells(row).map(csvCell).join(','));
  lines.push(
    cells({ ...report.totals, group: 'total' })
      .map(csvCell)
      .join(','),
  );
  return `${lines.join('\r\n')}\r\n`;
}
