/**
 * The lines of the usage journal, one JSON object each: `{"o":OpenCall}` when a call is
 * admitted, `{"r":UsageRow}` when it ends. Reading checks every field, so a torn last line
 * (a `kill -9` in the middle of a write) or any damaged line is skipped, never inserted.
 */
import { isErrorType } from '../core/error-type.js';
import { NUSD_PER_USD } from '../core/money.js';
import { USAGE_NUMBER_COLUMNS, USAGE_TEXT_COLUMNS, type UsageRow } from '../store/usage-repository.js';

/** What is known of a call when it is admitted, before its first upstream attempt. */
export interface OpenCall {
  request_id: string;
  key_id: string;
  surface: string;
  operation: string;
  model: string;
  stream: boolean;
  /** Unix milliseconds. */
  created_at: number;
  /** The key's account; absent in lines written before accounts existed. */
  account_id?: string | null;
}

type JournalEntry = { open: OpenCall } | { row: UsageRow };

// The lines are written field by field: the same JSON as `JSON.stringify({ o: open })` and
// `JSON.stringify({ r: row })` in other words, at about half the cost (two lines per call).
const text = JSON.stringify;

/** A number as `JSON.stringify` writes it (not finite: `null`). */
function num(value: number): string {
  return Number.isFinite(value) ? `${value}` : 'null';
}

function account(value: string | null | undefined): string {
  return value === undefined || value === null ? 'null' : text(value);
}

export function openLine(open: OpenCall): string {
  const accountPart = open.account_id === undefined ? '' : `,"account_id":${account(open.account_id)}`;
  return `{"o":{"request_id":${text(open.request_id)},"key_id":${text(open.key_id)},"surface":${text(open.surface)},"operation":${text(open.operation)},"model":${text(open.model)},"stream":${open.stream ? 'true' : 'false'},"created_at":${num(open.created_at)}${accountPart}}}\n`;
}

export function rowLine(row: UsageRow): string {
  return (
    `{"r":{"request_id":${text(row.request_id)},"key_id":${text(row.key_id)},"surface":${text(row.surface)},"operation":${text(row.operation)},` +
    `"model":${text(row.model)},"channel":${text(row.channel)},"provider":${text(row.provider)},"upstream_model":${text(row.upstream_model)},` +
    `"outcome":${text(row.outcome)},"stream":${num(row.stream)},"input_tokens":${num(row.input_tokens)},"output_tokens":${num(row.output_tokens)},` +
    `"cache_read_tokens":${num(row.cache_read_tokens)},"cache_write_tokens":${num(row.cache_write_tokens)},"reasoning_tokens":${num(row.reasoning_tokens)},` +
    `"units":${num(row.units)},"cost_nusd":${num(row.cost_nusd)},"latency_ms":${num(row.latency_ms)},"created_at":${num(row.created_at)},"account_id":${account(row.account_id)}` +
    `${row.refusal ? `,"refusal":${text(row.refusal)}` : ''}${row.error_type ? `,"error_type":${text(row.error_type)}` : ''}${row.unpriced ? ',"unpriced":1' : ''}}}\n`
  );
}

const ROW_TEXT = USAGE_TEXT_COLUMNS;
const ROW_NUMBERS = USAGE_NUMBER_COLUMNS;
const OPEN_TEXT = ['request_id', 'key_id', 'surface', 'operation', 'model'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toRow(value: unknown): UsageRow | undefined {
  if (!isRecord(value)) return undefined;
  if (value.cost_nusd === undefined) value.cost_nusd = legacyCost(value.cost_usd);
  if (!Number.isSafeInteger(value.cost_nusd)) return undefined;
  for (const name of ROW_TEXT) if (typeof value[name] !== 'string') return undefined;
  for (const name of ROW_NUMBERS) if (typeof value[name] !== 'number' || !Number.isFinite(value[name])) return undefined;
  const row: Record<string, unknown> = {};
  for (const name of [...ROW_TEXT, ...ROW_NUMBERS]) row[name] = value[name];
  row.account_id = accountOf(value);
  if (typeof value.refusal === 'string') row.refusal = value.refusal;
  // Lines written before error types (or by a gateway that knows more of them) keep none.
  if (isErrorType(value.error_type)) row.error_type = value.error_type;
  if (value.unpriced === 1) row.unpriced = 1;
  return row as unknown as UsageRow;
}

/**
 * A line written before money was integers holds `cost_usd`, which was `nUSD / 10⁹`: rounding
 * it back gives the integer it came from. Not a number: undefined, and the line is refused.
 */
function legacyCost(usd: unknown): number | undefined {
  return typeof usd === 'number' && Number.isFinite(usd) && usd >= 0 ? Math.round(usd * NUSD_PER_USD) : undefined;
}

/** A line from before accounts existed has no account: the row keeps none. */
function accountOf(value: Record<string, unknown>): string | null {
  return typeof value.account_id === 'string' ? value.account_id : null;
}

function toOpen(value: unknown): OpenCall | undefined {
  if (!isRecord(value)) return undefined;
  for (const name of OPEN_TEXT) if (typeof value[name] !== 'string') return undefined;
  if (typeof value.stream !== 'boolean' || typeof value.created_at !== 'number' || !Number.isFinite(value.created_at)) return undefined;
  return {
    request_id: value.request_id as string,
    key_id: value.key_id as string,
    surface: value.surface as string,
    operation: value.operation as string,
    model: value.model as string,
    stream: value.stream,
    created_at: value.created_at,
    account_id: accountOf(value),
  };
}

/** One journal line, or undefined when it is torn or damaged. */
export function parseJournalLine(line: string): JournalEntry | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed)) return undefined;
  if ('r' in parsed) {
    const row = toRow(parsed.r);
    return row ? { row } : undefined;
  }
  if ('o' in parsed) {
    const open = toOpen(parsed.o);
    return open ? { open } : undefined;
  }
  return undefined;
}

/** The row closing a call that was admitted but never ended: what was known, outcome `interrupted`. */
export function interruptedRow(open: OpenCall, lastSeenAt: number): UsageRow {
  return {
    request_id: open.request_id,
    key_id: open.key_id,
    surface: open.surface,
    operation: open.operation,
    model: open.model,
    channel: '',
    provider: '',
    upstream_model: '',
    outcome: 'interrupted',
    stream: open.stream ? 1 : 0,
    input_tokens: 0,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    units: 0,
    cost_nusd: 0,
    // It ran at least until its journal was last written.
    latency_ms: Math.max(0, Math.round(lastSeenAt - open.created_at)),
    created_at: open.created_at,
    account_id: open.account_id ?? null,
    // The process stopped in the middle of the call: the gateway's failure, not the client's or an upstream's.
    error_type: 'gateway.internal',
  };
}
