/**
 * A `POST /v1/responses` body (OpenAI's Responses API) → the canonical ChatRequest of the whole
 * conversation (the stored history, then this turn; `instructions` as the system prompt, never
 * carried over from earlier turns), this turn's items as they are stored, and the fields a
 * response object echoes, with OpenAI's defaults filled in.
 *
 * Every rejection is an `invalid_request` naming OpenAI's `param` (`input[3].content[0].text`).
 * The bounds (parse-responses-bounds.ts) are checked before any item is parsed. Unknown
 * top-level fields are ignored, as the Chat Completions surface does (OpenAI's clients send
 * newer fields than a gateway knows); `conversation` and `prompt`, which name state kept on
 * OpenAI's side, are refused rather than silently ignored.
 */
import type { ChatRequest } from '../../core/chat.js';
import { checkIdentifierText } from '../../core/client-strings.js';
import { invalidRequest } from '../../core/errors.js';
import { oneOf, optionalBoolean, optionalInteger, optionalNumber, optionalString, requireObject, type Json } from '../../core/validate.js';
import { parseReasoningEffort, thinkingBudgetForEffort } from '../shared/reasoning-effort.js';
import { parseConversation } from './parse-input-items.js';
import { checkHistoryBounds, checkResponsesInputBounds } from './parse-responses-bounds.js';
import { parseResponsesInclude } from './parse-responses-include.js';
import { parseResponsesMetadata } from './parse-responses-metadata.js';
import { parseResponsesToolChoice, parseResponsesTools } from './parse-responses-tools.js';
import { parseTextConfig } from './parse-text-config.js';
import { peekResponsesRequest } from './peek-responses-request.js';
import type { ParseResponsesRequest, ParsedResponsesRequest } from './seams.js';

/** Longest end-user id, cache key or safety identifier accepted. */
const MAX_IDENTIFIER_CHARS = 512;
const SUMMARIES = ['auto', 'concise', 'detailed'] as const;

export const parseResponsesRequest: ParseResponsesRequest = (body, context) => {
  const peeked = peekResponsesRequest(body);
  const json = body as Json;
  checkResponsesInputBounds(json);
  checkHistoryBounds(context.history);
  refuseOpenAIState(json);

  const instructions = optionalString(json.instructions, 'instructions');
  const tools = parseResponsesTools(json.tools);
  const toolChoice = parseResponsesToolChoice(json.tool_choice, tools.definitions);
  const conversation = parseConversation(context.history, json.input, context);
  if (conversation.messages.length === 0) {
    throw invalidRequest(`input: ${json.input === undefined ? 'is required' : 'needs at least one user, assistant or tool item'}`, 'input');
  }

  const canonical: ChatRequest = { model: peeked.model, messages: conversation.messages, stream: peeked.stream };
  const system =
    instructions !== undefined && instructions.length > 0 ? [{ type: 'text' as const, text: instructions }, ...conversation.system] : conversation.system;
  if (system.length > 0) canonical.system = system;
  if (peeked.stream) canonical.includeUsage = true;

  const maxOutputTokens = optionalInteger(json.max_output_tokens, 'max_output_tokens', 1);
  const temperature = optionalNumber(json.temperature, 'temperature', 0, 2);
  const topP = optionalNumber(json.top_p, 'top_p', 0, 1);
  const topLogprobs = optionalInteger(json.top_logprobs, 'top_logprobs', 0, 20);
  const parallelToolCalls = optionalBoolean(json.parallel_tool_calls, 'parallel_tool_calls');
  assign(canonical, 'maxTokens', maxOutputTokens);
  assign(canonical, 'temperature', temperature);
  assign(canonical, 'topP', topP);
  const offered = toolChoice.allowed ?? tools.definitions;
  if (offered.length > 0) canonical.tools = offered;
  assign(canonical, 'toolChoice', toolChoice.choice);
  assign(canonical, 'parallelToolCalls', parallelToolCalls);

  const text = parseTextConfig(json.text);
  assign(canonical, 'responseFormat', text.format);
  const reasoning = json.reasoning === undefined || json.reasoning === null ? {} : requireObject(json.reasoning, 'reasoning');
  const effort = parseReasoningEffort(reasoning.effort, 'reasoning.effort');
  assign(canonical, 'thinkingBudget', thinkingBudgetForEffort(effort));
  const summaryParam = reasoning.summary !== undefined && reasoning.summary !== null ? 'reasoning.summary' : 'reasoning.generate_summary';
  const summaryValue = reasoning.summary ?? reasoning.generate_summary;
  const summary = summaryValue === undefined || summaryValue === null ? undefined : oneOf(summaryValue, summaryParam, SUMMARIES);

  const include = parseResponsesInclude(json.include);
  if (include.includes('message.output_text.logprobs') || (topLogprobs !== undefined && topLogprobs > 0)) canonical.logprobs = true;
  if (topLogprobs !== undefined && topLogprobs > 0) canonical.topLogprobs = topLogprobs;

  const user = identifier(json.user, 'user');
  const safetyIdentifier = identifier(json.safety_identifier, 'safety_identifier');
  assign(canonical, 'user', safetyIdentifier ?? user);

  const echo = {
    instructions: instructions ?? null,
    tools: tools.echo,
    tool_choice: toolChoice.echo,
    temperature: temperature ?? 1,
    top_p: topP ?? 1,
    max_output_tokens: maxOutputTokens ?? null,
    text: text.echo,
    reasoning: { effort: effort ?? null, summary: summary ?? null },
    metadata: parseResponsesMetadata(json.metadata),
    parallel_tool_calls: parallelToolCalls ?? true,
    store: peeked.store,
    truncation: json.truncation === undefined || json.truncation === null ? 'disabled' : oneOf(json.truncation, 'truncation', ['auto', 'disabled'] as const),
    previous_response_id: peeked.previousResponseId ?? null,
    background: peeked.background,
    service_tier:
      json.service_tier === undefined || json.service_tier === null
        ? 'auto'
        : oneOf(json.service_tier, 'service_tier', ['auto', 'default', 'flex', 'scale', 'priority'] as const),
    user: user ?? null,
    safety_identifier: safetyIdentifier ?? null,
    prompt_cache_key: identifier(json.prompt_cache_key, 'prompt_cache_key') ?? null,
    max_tool_calls: optionalInteger(json.max_tool_calls, 'max_tool_calls', 1) ?? null,
    top_logprobs: topLogprobs ?? 0,
  };
  const parsed: ParsedResponsesRequest = {
    canonical,
    inputItems: conversation.inputItems,
    echo,
    include,
    includeObfuscation: includeObfuscation(json.stream_options),
    warnings: tools.warnings,
    toolNamespaces: tools.namespaces,
  };
  return parsed;
};

/** Fields that name state kept on OpenAI's side, which the gateway does not have. */
export function refuseOpenAIState(json: Json): void {
  if (json.conversation !== undefined && json.conversation !== null) {
    throw invalidRequest('conversation: the Conversations API is not available on gengate; continue a conversation with previous_response_id', 'conversation');
  }
  if (json.prompt !== undefined && json.prompt !== null) {
    throw invalidRequest('prompt: stored prompt templates are not available on gengate; send instructions and input instead', 'prompt');
  }
}

function identifier(value: unknown, param: string): string | undefined {
  const text = optionalString(value, param);
  if (text === undefined) return undefined;
  if (text.length > MAX_IDENTIFIER_CHARS) throw invalidRequest(`${param}: must be at most ${MAX_IDENTIFIER_CHARS} characters`, param);
  return checkIdentifierText(text, param);
}

function includeObfuscation(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  const options = requireObject(value, 'stream_options');
  return optionalBoolean(options.include_obfuscation, 'stream_options.include_obfuscation') ?? true;
}

function assign<K extends keyof ChatRequest>(request: ChatRequest, key: K, value: ChatRequest[K] | undefined): void {
  if (value !== undefined) request[key] = value;
}
