/**
 * The query strings of the Responses read routes: `include` (written `include[]=…` by the
 * OpenAI SDKs, or `include=…`) on retrieve and `input_items`, `stream` on retrieve, and the
 * `input_items` page (`limit` 1–100, default 20; `order` `asc` or `desc`, default `desc`; `after`
 * an item id). Every value is checked; a bad one is an `invalid_request` naming it.
 */
import { checkIdentifierText } from '../../core/client-strings.js';
import { invalidRequest } from '../../core/errors.js';
import { isJsonObject } from '../../core/peeked-chat-request.js';
import { parseResponsesInclude } from './parse-responses-include.js';

export interface InputItemsQuery {
  limit: number;
  order: 'asc' | 'desc';
  after?: string;
  include: string[];
}

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;
const MAX_ID_CHARS = 256;

function queryOf(query: unknown): Record<string, unknown> {
  return isJsonObject(query) ? query : {};
}

/** One value of a parameter: a repeated one (`limit=1&limit=2`) is refused. */
function single(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`${name}: expected one value`, name);
  return value;
}

function includeOf(query: Record<string, unknown>): string[] {
  const values: unknown[] = [];
  for (const name of ['include', 'include[]']) {
    const value = query[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) values.push(...value);
    else values.push(value);
  }
  return parseResponsesInclude(values);
}

export function parseRetrieveQuery(raw: unknown): { include: string[]; stream: boolean } {
  const query = queryOf(raw);
  const stream = single(query, 'stream');
  if (stream !== undefined && stream !== 'true' && stream !== 'false') throw invalidRequest('stream: expected true or false', 'stream');
  return { include: includeOf(query), stream: stream === 'true' };
}

export function parseInputItemsQuery(raw: unknown): InputItemsQuery {
  const query = queryOf(raw);
  const limitText = single(query, 'limit');
  let limit = DEFAULT_LIMIT;
  if (limitText !== undefined) {
    limit = /^\d{1,4}$/.test(limitText) ? Number(limitText) : Number.NaN;
    if (!(limit >= 1 && limit <= MAX_LIMIT)) throw invalidRequest(`limit: expected a whole number from 1 to ${MAX_LIMIT}`, 'limit');
  }
  const order = single(query, 'order') ?? 'desc';
  if (order !== 'asc' && order !== 'desc') throw invalidRequest('order: expected asc or desc', 'order');
  const parsed: InputItemsQuery = { limit, order, include: includeOf(query) };
  const after = single(query, 'after');
  if (after !== undefined) {
    if (after.length === 0 || after.length > MAX_ID_CHARS) throw invalidRequest(`after: expected an item id of 1 to ${MAX_ID_CHARS} characters`, 'after');
    parsed.after = checkIdentifierText(after, 'after');
  }
  return parsed;
}
