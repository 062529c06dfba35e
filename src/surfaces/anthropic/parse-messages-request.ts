/**
 * An Anthropic `POST /v1/messages` body → the canonical ChatRequest. Every error names the
 * offending field the way the client wrote it (`messages[1].content[0].source.data`).
 */
import type { ChatMessage, ChatRequest, TextPart } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import {
  oneOf,
  optionalBoolean,
  optionalInteger,
  optionalNumber,
  optionalString,
  optionalStringList,
  requireArray,
  requireInteger,
  requireObject,
  requireString,
} from '../../core/validate.js';
import { parseCacheControl } from './parse-media-blocks.js';
import { parseMessageTurn, type ToolNames } from './parse-message-turn.js';
import { parseOutputConfig } from './parse-output-config.js';
import { parseToolChoice, parseTools } from './parse-tools.js';
import { loadedTools } from './tool-search-blocks.js';

function parseSystem(value: unknown, param: string): TextPart[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value.length > 0 ? [{ type: 'text', text: value }] : undefined;
  if (!Array.isArray(value)) requireString(value, param);
  return (value as unknown[]).map((item, i) => {
    const blockParam = `${param}[${i}]`;
    const block = requireObject(item, blockParam);
    oneOf(block.type, `${blockParam}.type`, ['text'] as const);
    const part: TextPart = { type: 'text', text: requireString(block.text, `${blockParam}.text`) };
    const cacheControl = parseCacheControl(block.cache_control, `${blockParam}.cache_control`);
    if (cacheControl) part.cacheControl = cacheControl;
    return part;
  });
}

interface ParsedMessages {
  messages: ChatMessage[];
  /** Text of `role: "system"` turns (1.x SDKs allow them mid-conversation); canonical form keeps one system prompt. */
  system: TextPart[];
  /** Tools named by `tool_reference` blocks. */
  referenced: Set<string>;
}

function parseMessages(value: unknown): ParsedMessages {
  if (value === undefined) throw new GatewayError('invalid_request', 'messages: is required', { param: 'messages' });
  const turns = requireArray(value, 'messages');
  const toolNames: ToolNames = new Map();
  const parsed: ParsedMessages = { messages: [], system: [], referenced: new Set() };
  turns.forEach((turn, i) => {
    const param = `messages[${i}]`;
    if ((turn as { role?: unknown } | null)?.role === 'system') {
      parsed.system.push(...(parseSystem((turn as { content?: unknown }).content, `${param}.content`) ?? []));
      return;
    }
    for (const message of parseMessageTurn(turn, param, toolNames, parsed.referenced)) parsed.messages.push(message);
  });
  if (parsed.messages.length === 0) {
    throw new GatewayError('invalid_request', 'messages: at least one user or assistant message is required', { param: 'messages' });
  }
  return parsed;
}

/** `thinking.budget_tokens` when thinking is enabled; `disabled` and `adaptive` ask for no budget. */
function parseThinking(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  const thinking = requireObject(value, 'thinking');
  const type = oneOf(thinking.type, 'thinking.type', ['enabled', 'disabled', 'adaptive'] as const);
  if (type !== 'enabled') return undefined;
  return requireInteger(thinking.budget_tokens, 'thinking.budget_tokens', 1024);
}

interface ParseOptions {
  /** `count_tokens` bodies carry no `max_tokens`. */
  countOnly?: boolean;
}

export function parseAnthropicMessagesRequest(body: unknown, options: ParseOptions = {}): ChatRequest {
  const json = requireObject(body, 'body');
  const model = requireString(json.model, 'model');
  if (model.length === 0) throw new GatewayError('invalid_request', 'model: must not be empty', { param: 'model' });
  const maxTokens = options.countOnly ? optionalInteger(json.max_tokens, 'max_tokens', 1) : requireInteger(json.max_tokens, 'max_tokens', 1);
  const parsed = parseMessages(json.messages);
  const request: ChatRequest = {
    model,
    messages: parsed.messages,
    stream: optionalBoolean(json.stream, 'stream') ?? false,
  };
  if (maxTokens !== undefined) request.maxTokens = maxTokens;
  const system = [...(parseSystem(json.system, 'system') ?? []), ...parsed.system];
  if (system.length > 0) request.system = system;
  const temperature = optionalNumber(json.temperature, 'temperature', 0, 1);
  if (temperature !== undefined) request.temperature = temperature;
  const topP = optionalNumber(json.top_p, 'top_p', 0, 1);
  if (topP !== undefined) request.topP = topP;
  const topK = optionalInteger(json.top_k, 'top_k', 0);
  if (topK !== undefined) request.topK = topK;
  if (json.stop_sequences !== undefined && json.stop_sequences !== null) {
    request.stop = optionalStringList(requireArray(json.stop_sequences, 'stop_sequences'), 'stop_sequences');
  }
  if (json.metadata !== undefined && json.metadata !== null) {
    const user = optionalString(requireObject(json.metadata, 'metadata').user_id, 'metadata.user_id');
    if (user !== undefined) request.user = user;
  }
  const thinkingBudget = parseThinking(json.thinking);
  if (thinkingBudget !== undefined) request.thinkingBudget = thinkingBudget;
  const parsedTools = parseTools(json.tools);
  const { toolChoice, parallelToolCalls } = parseToolChoice(json.tool_choice);
  if (parsedTools) {
    request.tools = loadedTools(parsedTools.tools, parsedTools.deferred, parsed.referenced, parsed.messages, toolChoice);
  }
  if (toolChoice) request.toolChoice = toolChoice;
  if (parallelToolCalls !== undefined) request.parallelToolCalls = parallelToolCalls;
  const responseFormat = parseOutputConfig(json);
  if (responseFormat) request.responseFormat = responseFormat;
  return request;
}
