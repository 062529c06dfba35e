/** `GET /v1/videos` query → a page request: `limit` 1–100 (default 20), `after` a video id, `order` asc|desc (default desc). */
import { describeValue } from '../../core/describe-value.js';
import { invalidRequest } from '../../core/errors.js';
import { TASK_ID } from '../../core/own-task.js';

const DEFAULT_LIST_LIMIT = 20;
const MAX_LIST_LIMIT = 100;

interface VideoListQuery {
  limit: number;
  after?: string;
  order: 'asc' | 'desc';
}

export function parseVideoListQuery(query: unknown): VideoListQuery {
  const fields = (query ?? {}) as Record<string, unknown>;
  const limitText = single(fields.limit, 'limit');
  const after = single(fields.after, 'after');
  const order = single(fields.order, 'order') ?? 'desc';
  const parsed: VideoListQuery = { limit: DEFAULT_LIST_LIMIT, order: 'desc' };
  if (limitText !== undefined) {
    if (!/^\d{1,4}$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > MAX_LIST_LIMIT)
      throw invalidRequest(`limit: must be a whole number from 1 to ${MAX_LIST_LIMIT}, got ${describeValue(limitText)}`, 'limit');
    parsed.limit = Number(limitText);
  }
  if (order !== 'asc' && order !== 'desc') throw invalidRequest(`order: must be one of "asc", "desc", got ${describeValue(order)}`, 'order');
  parsed.order = order;
  if (after !== undefined && after !== '') {
    if (!TASK_ID.test(after)) throw invalidRequest(`after: must be a video id, got ${describeValue(after)}`, 'after');
    parsed.after = after;
  }
  return parsed;
}

/** One value of a query parameter (a repeated one is a 400). */
function single(value: unknown, param: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`${param}: must be given once`, param);
  return value;
}
