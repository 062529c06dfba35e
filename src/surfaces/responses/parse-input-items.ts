/**
 * The conversation of a Responses request — the stored history `previous_response_id`
 * continues, then this turn's `input` — → canonical system parts and turns, with this turn's
 * items as they are stored (known members only, messages' content always a list of parts,
 * each item with an id: the client's, else a new `msg_…`, `fc_…`, `fco_…` or `rs_…`).
 *
 * - `message` items (also the "easy" form without `type`): user turns, system and developer
 *   text (collected, in order, into the canonical system prompt after `instructions`) and
 *   assistant text;
 * - `function_call` → an assistant tool call; `function_call_output` → a tool result, named
 *   after the call it answers (which must come before it);
 * - `reasoning` → thinking (see parse-reasoning-item.ts);
 * - `item_reference` (also `{id}` alone) → the history's or this input's item of that id, else
 *   the account's stored item of that id (`ParseContext.storedItems`), as if it stood there (and
 *   stored as that item).
 *
 * The stored history's hosted-tool items (from turns relayed to OpenAI) are left out.
 * Consecutive assistant items (reasoning, text, calls of one answer) form one assistant turn.
 * The callers bound the input and the history before this runs (parse-responses-bounds.ts).
 */
import type { ChatMessage, ContentPart, ImagePart, TextPart, ToolResultPart } from '../../core/chat.js';
import { checkIdentifierText } from '../../core/client-strings.js';
import { describeValue } from '../../core/describe-value.js';
import { GatewayError, invalidRequest, isGatewayError } from '../../core/errors.js';
import { prefixedId } from '../../core/ids.js';
import type { ResponseItem } from '../../core/responses.js';
import { describe, oneOf, requireArray, requireObject, requireString, type Json } from '../../core/validate.js';
import { parseInputImage } from './parse-input-media.js';
import { parseMessageContent } from './parse-message-content.js';
import { parseReasoningItem } from './parse-reasoning-item.js';
import { canonicalToolName } from './parse-responses-tools.js';
import type { ParseContext } from './seams.js';

const ROLES = ['user', 'assistant', 'system', 'developer'] as const;
const ITEM_TYPES = ['message', 'function_call', 'function_call_output', 'reasoning', 'item_reference'];
const MAX_ITEM_ID_CHARS = 256;

export interface ParsedConversation {
  system: TextPart[];
  messages: ChatMessage[];
  /** This turn's items, stored shape, with ids. */
  inputItems: ResponseItem[];
}

interface State {
  system: TextPart[];
  messages: ChatMessage[];
  /** Tool names by call id, from the function calls so far. */
  callNames: Map<string, string>;
  /** Items an `item_reference` may name, by id. */
  referable: Map<string, unknown>;
  storedItems: ReadonlyMap<string, ResponseItem> | undefined;
  openReasoning: ParseContext['openReasoning'];
}

export function parseConversation(history: readonly ResponseItem[], input: unknown, context: ParseContext): ParsedConversation {
  const items = inputList(input);
  const state: State = {
    system: [],
    messages: [],
    callNames: new Map(),
    referable: new Map(),
    storedItems: context.storedItems,
    openReasoning: (sealed) => context.openReasoning(sealed),
  };
  // References name items, never other references (so resolving one never loops).
  for (const item of [...history, ...items]) {
    if (isJson(item) && typeof item.id === 'string' && item.type !== 'item_reference' && isMessageOrTyped(item)) state.referable.set(item.id, item);
  }
  history.forEach((item, i) => {
    if (isHostedToolItem(item)) return;
    try {
      parseItem(item, `history[${i}]`, state);
    } catch (error) {
      if (!isGatewayError(error)) throw error;
      throw new GatewayError('invalid_request', `previous_response_id: the stored conversation cannot be continued: ${error.message}`, {
        param: 'previous_response_id',
      });
    }
  });
  const inputItems = items.map((item, i) => parseItem(item, `input[${i}]`, state));
  return { system: state.system, messages: state.messages, inputItems };
}

/**
 * An item of a hosted tool OpenAI ran on a relayed turn (`web_search_call`, `code_interpreter_call`,
 * …): left out of a stored conversation continued by translation, since no other vendor can
 * replay it; the answer that used it is in the conversation as its message.
 */
function isHostedToolItem(item: ResponseItem): boolean {
  return typeof item.type === 'string' && !ITEM_TYPES.includes(item.type);
}

/** `input` as a list of items: a string is one user message. */
function inputList(input: unknown): unknown[] {
  if (input === undefined || input === null) return [];
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  if (!Array.isArray(input)) throw invalidRequest(`input: expected a string or an array of items, got ${describe(input)}`, 'input');
  return input;
}

function isJson(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Whether an item is more than a bare `{id}` reference. */
function isMessageOrTyped(item: Json): boolean {
  return (item.type !== undefined && item.type !== null) || item.role !== undefined;
}

function parseItem(value: unknown, param: string, state: State): ResponseItem {
  const item = requireObject(value, param);
  const type = item.type ?? (item.role !== undefined ? 'message' : item.id !== undefined ? 'item_reference' : undefined);
  if (type === undefined || type === null) throw invalidRequest(`${param}.type: is required`, `${param}.type`);
  switch (type) {
    case 'message':
      return message(item, param, state);
    case 'function_call':
      return functionCall(item, param, state);
    case 'function_call_output':
      return functionCallOutput(item, param, state);
    case 'reasoning': {
      const { part, wire } = parseReasoningItem(item, itemId(item, 'rs_', param), param, state.openReasoning);
      if (part) addAssistant(state, part);
      return wire as ResponseItem;
    }
    case 'item_reference':
      return reference(item, param, state);
    default:
      throw invalidRequest(
        `${param}.type: ${describeValue(type)} items are not supported: gengate translates ${ITEM_TYPES.map((t) => `"${t}"`).join(', ')} items`,
        `${param}.type`,
      );
  }
}

function itemId(item: Json, prefix: string, param: string): string {
  const id = item.id;
  if (id === undefined || id === null) return prefixedId(prefix);
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ITEM_ID_CHARS) {
    throw invalidRequest(`${param}.id: expected a non-empty string of at most ${MAX_ITEM_ID_CHARS} characters`, `${param}.id`);
  }
  return checkIdentifierText(id, `${param}.id`);
}

function addAssistant(state: State, part: ContentPart): void {
  const last = state.messages[state.messages.length - 1];
  if (last?.role === 'assistant') last.content.push(part);
  else state.messages.push({ role: 'assistant', content: [part] });
}

function message(item: Json, param: string, state: State): ResponseItem {
  const role = oneOf(item.role, `${param}.role`, ROLES);
  const id = itemId(item, 'msg_', param);
  const { parts, wire } = parseMessageContent(item.content, role, `${param}.content`);
  if (role === 'system' || role === 'developer') state.system.push(...(parts as TextPart[]));
  else if (role === 'user') state.messages.push({ role: 'user', content: parts });
  else for (const part of parts) addAssistant(state, part);
  return { type: 'message', id, role, content: wire };
}

function nonEmptyString(value: unknown, param: string): string {
  const text = requireString(value, param);
  if (text.length === 0) throw invalidRequest(`${param}: must not be empty`, param);
  return text;
}

function functionCall(item: Json, param: string, state: State): ResponseItem {
  const id = itemId(item, 'fc_', param);
  const callId = nonEmptyString(item.call_id, `${param}.call_id`);
  const name = nonEmptyString(item.name, `${param}.name`);
  const namespace = item.namespace === undefined || item.namespace === null ? undefined : nonEmptyString(item.namespace, `${param}.namespace`);
  const args = requireString(item.arguments, `${param}.arguments`);
  const canonicalName = canonicalToolName(name, namespace);
  state.callNames.set(callId, canonicalName);
  addAssistant(state, { type: 'tool_call', id: callId, name: canonicalName, arguments: args });
  return { type: 'function_call', id, call_id: callId, name, ...(namespace === undefined ? {} : { namespace }), arguments: args };
}

function functionCallOutput(item: Json, param: string, state: State): ResponseItem {
  const id = itemId(item, 'fco_', param);
  const callId = nonEmptyString(item.call_id, `${param}.call_id`);
  const name = state.callNames.get(callId);
  if (name === undefined) {
    throw invalidRequest(
      `${param}.call_id: no function_call with call_id ${describeValue(callId)} comes before this output in the conversation`,
      `${param}.call_id`,
    );
  }
  const { content, wire } = toolOutput(item.output, `${param}.output`);
  const result: ToolResultPart = { type: 'tool_result', toolCallId: callId, name, content };
  state.messages.push({ role: 'tool', content: [result] });
  return { type: 'function_call_output', id, call_id: callId, output: wire };
}

/** A function's output: a string, or text and image parts (files have no place in a canonical tool result). */
function toolOutput(value: unknown, param: string): { content: ToolResultPart['content']; wire: string | Json[] } {
  if (typeof value === 'string') return { content: value, wire: value };
  if (value === undefined || value === null) throw invalidRequest(`${param}: is required`, param);
  const list = requireArray(value, param);
  if (list.length === 0) return { content: '', wire: [] };
  const content: Array<TextPart | ImagePart> = [];
  const wire: Json[] = [];
  list.forEach((entry, j) => {
    const at = `${param}[${j}]`;
    const part = requireObject(entry, at);
    if (part.type === 'input_text') {
      const text = requireString(part.text, `${at}.text`);
      content.push({ type: 'text', text });
      wire.push({ type: 'input_text', text });
    } else if (part.type === 'input_image') {
      const image = parseInputImage(part, at);
      content.push(image.part);
      wire.push(image.wire);
    } else if (part.type === 'input_file') {
      throw invalidRequest(`${at}.type: input_file parts are not supported in a function_call_output; send the file in a user message`, `${at}.type`);
    } else {
      throw invalidRequest(`${at}.type: must be "input_text" or "input_image", got ${describeValue(part.type)}`, `${at}.type`);
    }
  });
  return { content, wire };
}

function reference(item: Json, param: string, state: State): ResponseItem {
  const id = nonEmptyString(item.id, `${param}.id`);
  const stored = state.storedItems?.get(id);
  const target = state.referable.get(id) ?? (stored?.type === 'item_reference' ? undefined : stored);
  if (target === undefined) throw invalidRequest(`${param}.id: no item with id ${describeValue(id)} in this conversation`, `${param}.id`);
  // A reference stands for the item it names: parsed again here, in this place of the conversation.
  return parseItem(target, param, state);
}
