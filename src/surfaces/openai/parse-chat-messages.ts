/**
 * OpenAI `messages[]` → canonical system parts and turns. System and developer messages are
 * collected (in order) into the canonical system prompt; tool results learn their tool's
 * name from the assistant turn that called it (dialects like Gemini need it).
 */
import type { ChatMessage, ContentPart, TextPart, ToolCallPart, ToolResultPart } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';
import { describe, oneOf, optionalString, requireArray, requireObject, requireString, type Json } from '../../core/validate.js';
import { parseTextPart, parseUserContentPart } from './parse-content-part.js';
import { parseThinkingBlocks } from './parse-thinking-blocks.js';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;

interface ParsedMessages {
  system: TextPart[];
  messages: ChatMessage[];
}

export function parseOpenAIMessages(value: unknown): ParsedMessages {
  if (value === undefined || value === null) throw invalidRequest('messages: is required', 'messages');
  const list = requireArray(value, 'messages');
  if (list.length === 0) throw invalidRequest('messages: must contain at least one message', 'messages');
  const system: TextPart[] = [];
  const messages: ChatMessage[] = [];
  const toolNames = new Map<string, string>();
  list.forEach((item, i) => {
    const param = `messages[${i}]`;
    const message = requireObject(item, param);
    const role = oneOf(message.role, `${param}.role`, ROLES);
    const name = optionalString(message.name, `${param}.name`);
    switch (role) {
      case 'system':
      case 'developer':
        system.push(...textContent(message.content, `${param}.content`));
        return;
      case 'user':
        messages.push(withName({ role: 'user', content: userContent(message.content, `${param}.content`) }, name));
        return;
      case 'assistant': {
        const turn = assistantTurn(message, param);
        for (const part of turn) if (part.type === 'tool_call') toolNames.set(part.id, part.name);
        messages.push(withName({ role: 'assistant', content: turn }, name));
        return;
      }
      case 'tool':
        messages.push({ role: 'tool', content: [toolResult(message, param, toolNames)] });
        return;
    }
  });
  return { system, messages };
}

function withName(message: ChatMessage, name: string | undefined): ChatMessage {
  if (name !== undefined) message.name = name;
  return message;
}

function textContent(value: unknown, param: string): TextPart[] {
  if (typeof value === 'string') return [{ type: 'text', text: value }];
  if (value === undefined || value === null) throw invalidRequest(`${param}: is required`, param);
  const parts = nonEmptyArray(value, param);
  return parts.map((part, j) => parseTextPart(part, `${param}[${j}]`));
}

function userContent(value: unknown, param: string): ContentPart[] {
  if (typeof value === 'string') return [{ type: 'text', text: value }];
  if (value === undefined || value === null) throw invalidRequest(`${param}: is required`, param);
  const parts = nonEmptyArray(value, param);
  return parts.map((part, j) => parseUserContentPart(part, `${param}[${j}]`));
}

function assistantTurn(message: Json, param: string): ContentPart[] {
  // Thinking came before the text and calls it led to (Anthropic wants it first).
  const content: ContentPart[] = parseThinkingBlocks(message.thinking_blocks, `${param}.thinking_blocks`);
  const value = message.content;
  if (typeof value === 'string') {
    if (value.length > 0) content.push({ type: 'text', text: value });
  } else if (value !== undefined && value !== null) {
    if (!Array.isArray(value)) {
      throw invalidRequest(`${param}.content: expected a string, an array of content parts or null, got ${describe(value)}`, `${param}.content`);
    }
    value.forEach((item, j) => content.push(assistantTextPart(item, `${param}.content[${j}]`)));
  }
  if (message.tool_calls !== undefined && message.tool_calls !== null) {
    const calls = requireArray(message.tool_calls, `${param}.tool_calls`);
    calls.forEach((call, j) => content.push(toolCall(call, `${param}.tool_calls[${j}]`)));
  }
  if (content.length === 0 && (value === undefined || value === null)) {
    throw invalidRequest(`${param}.content: an assistant message needs content or tool_calls`, `${param}.content`);
  }
  return content;
}

/** Assistant content parts are text or refusal; a refusal is kept as the text it said. */
function assistantTextPart(value: unknown, param: string): TextPart {
  const part = requireObject(value, param);
  if (part.type === 'refusal') return { type: 'text', text: requireString(part.refusal, `${param}.refusal`) };
  return parseTextPart(part, param);
}

function toolCall(value: unknown, param: string): ToolCallPart {
  const call = requireObject(value, param);
  if (call.type !== undefined && call.type !== 'function') {
    throw invalidRequest(`${param}.type: only "function" tool calls are supported`, `${param}.type`);
  }
  const id = requireString(call.id, `${param}.id`);
  const fn = requireObject(call.function, `${param}.function`);
  return {
    type: 'tool_call',
    id,
    name: requireString(fn.name, `${param}.function.name`),
    arguments: requireString(fn.arguments, `${param}.function.arguments`),
  };
}

function toolResult(message: Json, param: string, toolNames: Map<string, string>): ToolResultPart {
  const toolCallId = requireString(message.tool_call_id, `${param}.tool_call_id`);
  const value = message.content;
  const content = typeof value === 'string' ? value : textContent(value, `${param}.content`);
  const result: ToolResultPart = { type: 'tool_result', toolCallId, content };
  const name = toolNames.get(toolCallId);
  if (name !== undefined) result.name = name;
  return result;
}

function nonEmptyArray(value: unknown, param: string): unknown[] {
  if (!Array.isArray(value)) throw invalidRequest(`${param}: expected a string or an array of content parts, got ${describe(value)}`, param);
  const list = value;
  if (list.length === 0) throw invalidRequest(`${param}: must not be an empty array`, param);
  return list;
}
