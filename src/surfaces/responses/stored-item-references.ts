/**
 * What a Responses request's parse needs from the state besides the conversation it continues:
 * the account's stored items its `item_reference`s name that neither that conversation nor the
 * input itself holds (the Vercel AI SDK's default provider names earlier responses' output items
 * this way, without `previous_response_id`). Collected before parsing, cheaply and bounded: an
 * `input` that is not an array, or longer than the parser takes, looks nothing up (the parser
 * refuses it), and all the ids are looked up in one call, only when there are any.
 */
import type { AuthenticatedKey } from '../../core/key.js';
import type { ResponseItem } from '../../core/responses.js';
import { isJsonObject } from '../../core/peeked-chat-request.js';
import type { GatewayServices } from '../../gateway/contract.js';
import { MAX_INPUT_ITEMS } from './parse-responses-bounds.js';
import type { ParseContext } from './seams.js';

/** As the parser reads an item: `item_reference`, or a bare `{id}` without type or role. */
function isReference(item: Record<string, unknown>): boolean {
  if (item.type === 'item_reference') return true;
  return (item.type === undefined || item.type === null) && item.role === undefined && item.id !== undefined;
}

/** The ids `input`'s references name that neither `history` nor `input` holds, once each. */
export function unresolvedReferenceIds(input: unknown, history: readonly ResponseItem[]): string[] {
  if (!Array.isArray(input) || input.length > MAX_INPUT_ITEMS) return [];
  const named = new Set<string>();
  const held = new Set<string>();
  for (const item of input) {
    if (!isJsonObject(item) || typeof item.id !== 'string') continue;
    if (isReference(item)) named.add(item.id);
    else held.add(item.id);
  }
  if (named.size === 0) return [];
  for (const item of history) if (typeof item.id === 'string') held.add(item.id);
  return [...named].filter((id) => !held.has(id));
}

/** The parse context of a request by `key` continuing `history`, its references' stored items looked up. */
export async function parseContextFor(
  services: GatewayServices,
  key: AuthenticatedKey,
  body: unknown,
  history: readonly ResponseItem[],
): Promise<ParseContext> {
  const context: ParseContext = { history, openReasoning: (sealed) => services.responses.open(sealed) };
  const ids = unresolvedReferenceIds(isJsonObject(body) ? body.input : undefined, history);
  if (ids.length > 0) context.storedItems = await services.responses.items(key, ids);
  return context;
}
