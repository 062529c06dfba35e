/**
 * One Anthropic `messages[i]` turn → canonical messages. A user turn's `tool_result` blocks
 * become a canonical `tool` message placed before the rest of the user content.
 */
import type { ChatMessage, ContentPart, ImagePart, TextPart, ToolResultPart } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { oneOf, optionalBoolean, requireObject, requireString, type Json } from '../../core/validate.js';
import { parseCacheControl, parseDocumentBlock, parseImageBlock } from './parse-media-blocks.js';
import { toolReferenceText } from './tool-search-blocks.js';

/** Tool names by `tool_use` id, filled from assistant turns so results can name their tool. */
export type ToolNames = Map<string, string>;

function unsupported(param: string, message: string): never {
  throw new GatewayError('invalid_request', `${param}: ${message}`, { param });
}

function parseTextBlock(block: Json, param: string): TextPart {
  const part: TextPart = { type: 'text', text: requireString(block.text, `${param}.text`) };
  const cacheControl = parseCacheControl(block.cache_control, `${param}.cache_control`);
  if (cacheControl) part.cacheControl = cacheControl;
  return part;
}

function parseToolResult(block: Json, param: string, toolNames: ToolNames, referenced: Set<string>): ToolResultPart {
  const toolCallId = requireString(block.tool_use_id, `${param}.tool_use_id`);
  let content: ToolResultPart['content'] = '';
  if (block.content !== undefined && block.content !== null) {
    if (typeof block.content === 'string') {
      content = block.content;
    } else if (Array.isArray(block.content)) {
      content = block.content.map((item, i): TextPart | ImagePart => {
        const itemParam = `${param}.content[${i}]`;
        const inner = requireObject(item, itemParam);
        const type = oneOf(inner.type, `${itemParam}.type`, ['text', 'image', 'tool_reference'] as const);
        if (type === 'tool_reference') return toolReferenceText(inner, itemParam, referenced);
        return type === 'text' ? parseTextBlock(inner, itemParam) : parseImageBlock(inner, itemParam);
      });
    } else {
      unsupported(`${param}.content`, 'expected a string or an array of text, image and tool_reference blocks');
    }
  }
  const part: ToolResultPart = { type: 'tool_result', toolCallId, content };
  const name = toolNames.get(toolCallId);
  if (name !== undefined) part.name = name;
  const isError = optionalBoolean(block.is_error, `${param}.is_error`);
  if (isError !== undefined) part.isError = isError;
  return part;
}

function parseUserTurn(blocks: unknown[], param: string, toolNames: ToolNames, referenced: Set<string>): ChatMessage[] {
  const results: ToolResultPart[] = [];
  const rest: ContentPart[] = [];
  blocks.forEach((item, i) => {
    const blockParam = `${param}[${i}]`;
    const block = requireObject(item, blockParam);
    const type = requireString(block.type, `${blockParam}.type`);
    switch (type) {
      case 'text':
        rest.push(parseTextBlock(block, blockParam));
        break;
      case 'image':
        rest.push(parseImageBlock(block, blockParam));
        break;
      case 'document':
        rest.push(parseDocumentBlock(block, blockParam));
        break;
      case 'tool_result':
        results.push(parseToolResult(block, blockParam, toolNames, referenced));
        break;
      case 'tool_use':
      case 'thinking':
      case 'redacted_thinking':
        return unsupported(`${blockParam}.type`, `"${type}" blocks are only allowed in assistant turns`);
      default:
        return unsupported(`${blockParam}.type`, `unsupported content block type "${type}"`);
    }
  });
  const messages: ChatMessage[] = [];
  if (results.length > 0) messages.push({ role: 'tool', content: results });
  if (rest.length > 0) messages.push({ role: 'user', content: rest });
  return messages;
}

function parseToolUse(block: Json, param: string, toolNames: ToolNames): ContentPart {
  const id = requireString(block.id, `${param}.id`);
  const name = requireString(block.name, `${param}.name`);
  const input = block.input === undefined ? {} : requireObject(block.input, `${param}.input`);
  toolNames.set(id, name);
  return { type: 'tool_call', id, name, arguments: JSON.stringify(input) };
}

function parseAssistantTurn(blocks: unknown[], param: string, toolNames: ToolNames): ChatMessage[] {
  const content = blocks.map((item, i): ContentPart => {
    const blockParam = `${param}[${i}]`;
    const block = requireObject(item, blockParam);
    const type = requireString(block.type, `${blockParam}.type`);
    switch (type) {
      case 'text':
        return parseTextBlock(block, blockParam);
      case 'tool_use':
        return parseToolUse(block, blockParam, toolNames);
      case 'thinking': {
        const signature = typeof block.signature === 'string' ? block.signature : undefined;
        const text = requireString(block.thinking, `${blockParam}.thinking`);
        return signature === undefined ? { type: 'thinking', text } : { type: 'thinking', text, signature };
      }
      case 'redacted_thinking':
        return { type: 'thinking', text: '', redacted: requireString(block.data, `${blockParam}.data`) };
      case 'image':
      case 'document':
      case 'tool_result':
        return unsupported(`${blockParam}.type`, `"${type}" blocks are only allowed in user turns`);
      default:
        return unsupported(`${blockParam}.type`, `unsupported content block type "${type}"`);
    }
  });
  return [{ role: 'assistant', content }];
}

/** `referenced` collects the tools named by `tool_reference` blocks (see tool-search-blocks.ts). */
export function parseMessageTurn(value: unknown, param: string, toolNames: ToolNames, referenced: Set<string> = new Set()): ChatMessage[] {
  const turn = requireObject(value, param);
  const role = oneOf(turn.role, `${param}.role`, ['user', 'assistant'] as const);
  const contentParam = `${param}.content`;
  if (typeof turn.content === 'string') {
    if (turn.content.length === 0) unsupported(contentParam, 'must not be empty');
    return [{ role, content: [{ type: 'text', text: turn.content }] }];
  }
  if (!Array.isArray(turn.content)) {
    unsupported(contentParam, turn.content === undefined ? 'is required' : 'expected a string or an array of content blocks');
  }
  if (turn.content.length === 0) unsupported(contentParam, 'must not be empty');
  return role === 'user' ? parseUserTurn(turn.content, contentParam, toolNames, referenced) : parseAssistantTurn(turn.content, contentParam, toolNames);
}
