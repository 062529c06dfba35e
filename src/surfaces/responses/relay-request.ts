/**
 * The relay policy of a Responses request sent to OpenAI untranslated: the client's body with
 * only what the gateway's state makes necessary changed. `previous_response_id` names a gateway
 * response OpenAI never saw, so it is replaced by the stored conversation sent as `input` items;
 * an `item_reference` becomes the stored item it names. Items go up without the gateway's ids
 * (OpenAI would look them up and not find them), save reasoning, which OpenAI requires under its
 * own id: reasoning OpenAI encrypted is opened from the gateway's seal and sent back as OpenAI
 * wrote it; another vendor's (or one no vendor signed) is left out, since OpenAI cannot verify it;
 * so are stored hosted-tool items (their ids, which OpenAI requires, are the gateway's).
 * `store` is always false upstream: the gateway keeps the state (so a conversation continues on
 * any vendor and is deleted when its owner deletes it), and a store on OpenAI's side would keep
 * every tenant's conversations under the channel's organisation, under ids no client ever sees.
 * Because of that, OpenAI's encrypted reasoning is asked for whenever the response is stored,
 * so the next turn can give it back. `conversation` and `prompt`, state on OpenAI's side, are
 * refused as on a translated route. Everything else goes up as the client wrote it.
 */
import { describeValue } from '../../core/describe-value.js';
import { invalidRequest } from '../../core/errors.js';
import { prefixedId } from '../../core/ids.js';
import { isJsonObject } from '../../core/peeked-chat-request.js';
import type { ResponseItem, SealedReasoning } from '../../core/responses.js';
import { describe, requireObject, type Json } from '../../core/validate.js';
import { checkHistoryBounds, checkResponsesInputBounds } from './parse-responses-bounds.js';
import { refuseOpenAIState } from './parse-responses-request.js';
import type { ParseContext } from './seams.js';

const ENCRYPTED_REASONING = 'reasoning.encrypted_content';
/** Item types whose ids OpenAI would resolve against its store; sent without one. */
const ID_OPTIONAL_TYPES: ReadonlySet<string> = new Set(['message', 'function_call', 'function_call_output']);
const ID_PREFIXES: Readonly<Record<string, string>> = { message: 'msg_', function_call: 'fc_', function_call_output: 'fco_', reasoning: 'rs_' };

export interface RelayedRequest {
  /** The body to send upstream (the model is the provider's to rewrite). */
  body: Record<string, unknown>;
  /** This turn's input items as the gateway stores them: references resolved, each with an id. */
  inputItems: ResponseItem[];
}

export function relayRequest(body: Json, context: ParseContext, store: boolean): RelayedRequest {
  checkResponsesInputBounds(body);
  checkHistoryBounds(context.history);
  refuseOpenAIState(body);
  const clientItems = inputList(body.input);
  const referable = new Map<string, ResponseItem>();
  for (const item of [...context.history, ...clientItems]) {
    if (isJsonObject(item) && typeof item.id === 'string' && !isReference(item)) referable.set(item.id, item as ResponseItem);
  }
  const upstream: Json[] = [];
  /** `stored`: an item of the gateway's state (the history, a reference's target), not the client's own. */
  const send = (item: Json, stored: boolean): void => {
    if (stored && isHostedToolItem(item)) return;
    const sent = upstreamItem(item, context.openReasoning);
    if (sent !== undefined) upstream.push(sent);
  };
  for (const item of context.history) send(item, true);
  const inputItems = clientItems.map((value, i): ResponseItem => {
    const item = requireObject(value, `input[${i}]`);
    if (isReference(item)) {
      const target = resolve(item, `input[${i}]`, referable, context.storedItems);
      send(target, true);
      return target;
    }
    send(item, false);
    return withId(item);
  });
  const relayed: Record<string, unknown> = { ...body, store: false };
  delete relayed.previous_response_id;
  if (typeof body.input !== 'string' || context.history.length > 0) relayed.input = upstream;
  if (store) relayed.include = withEncryptedReasoning(body.include);
  return { body: relayed, inputItems };
}

/** `input` as a list of items: a string is one user message. */
function inputList(input: unknown): unknown[] {
  if (input === undefined || input === null) return [];
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  if (!Array.isArray(input)) throw invalidRequest(`input: expected a string or an array of items, got ${describe(input)}`, 'input');
  return input;
}

/** As the parser reads an item: `item_reference`, or a bare `{id}` without type or role. */
function isReference(item: Json): boolean {
  if (item.type === 'item_reference') return true;
  return (item.type === undefined || item.type === null) && item.role === undefined && item.id !== undefined;
}

function resolve(item: Json, param: string, referable: ReadonlyMap<string, ResponseItem>, stored: ReadonlyMap<string, ResponseItem> | undefined): ResponseItem {
  const id = item.id;
  if (typeof id !== 'string') throw invalidRequest(`${param}.id: expected a string, got ${describe(id)}`, `${param}.id`);
  if (id.length === 0) throw invalidRequest(`${param}.id: must not be empty`, `${param}.id`);
  const found = referable.get(id) ?? stored?.get(id);
  if (found === undefined || isReference(found)) throw invalidRequest(`${param}.id: no item with id ${describeValue(id)} in this conversation`, `${param}.id`);
  return found;
}

/**
 * A stored hosted-tool item (`web_search_call`, …) of an earlier relayed turn: its id, which
 * OpenAI requires, is the gateway's (OpenAI's own is not kept), so it is left out, as on a
 * translated turn; the answer that used the tool is in the conversation as its message.
 */
function isHostedToolItem(item: Json): boolean {
  return typeof item.type === 'string' && !ID_OPTIONAL_TYPES.has(item.type) && item.type !== 'reasoning' && item.type !== 'item_reference';
}

/** An item as OpenAI gets it; undefined when it is left out (reasoning OpenAI cannot verify). */
function upstreamItem(item: Json, open: (sealed: string) => SealedReasoning | undefined): Json | undefined {
  const type = typeof item.type === 'string' ? item.type : item.role !== undefined ? 'message' : undefined;
  if (type === 'reasoning') return upstreamReasoning(item, open);
  if (type === undefined || !ID_OPTIONAL_TYPES.has(type) || item.id === undefined) return item;
  const { id: _gatewayId, ...rest } = item;
  return rest;
}

function upstreamReasoning(item: Json, open: (sealed: string) => SealedReasoning | undefined): Json | undefined {
  if (typeof item.encrypted_content !== 'string') return undefined;
  const sealed = open(item.encrypted_content);
  // Not the gateway's seal: OpenAI's own, say, from a client that also calls OpenAI directly.
  if (sealed === undefined) return item;
  if (sealed.provider !== 'openai' || sealed.encrypted === undefined) return undefined;
  return { ...item, id: sealed.itemId ?? item.id, encrypted_content: sealed.encrypted };
}

/**
 * The item as stored and listed by `input_items`: with an id of its own, and a message's text
 * content as a list of parts, as OpenAI lists it (and as a translated turn stores it).
 */
function withId(item: Json): ResponseItem {
  const type = typeof item.type === 'string' ? item.type : 'message';
  const stored: Json = { ...item, type };
  if (type === 'message' && typeof item.content === 'string') {
    stored.content = [{ type: item.role === 'assistant' ? 'output_text' : 'input_text', text: item.content }];
  }
  if (typeof item.id !== 'string' || item.id.length === 0) stored.id = prefixedId(ID_PREFIXES[type] ?? 'item_');
  return stored as ResponseItem;
}

/** The client's `include` with encrypted reasoning asked for (once). */
function withEncryptedReasoning(include: unknown): unknown {
  // Not a list: the upstream refuses it in its own words.
  if (include !== undefined && include !== null && !Array.isArray(include)) return include;
  const list: unknown[] = Array.isArray(include) ? include : [];
  return list.includes(ENCRYPTED_REASONING) ? list : [...list, ENCRYPTED_REASONING];
}
