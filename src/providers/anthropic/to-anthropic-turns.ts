/**
 * Canonical messages → Anthropic turns. The Messages API wants strictly alternating
 * user/assistant turns starting with a user turn, tool results inside user turns (before
 * any other content of that turn), and no empty text blocks.
 */
import type { ChatMessage, ContentPart } from '../../core/chat.js';
import type { AnthropicContentBlock, AnthropicMessage } from '../../core/wire/anthropic-types.js';
import { toDocumentBlock, toImageBlock, toTextBlock, toThinkingBlock, toToolResultBlock, toToolUseBlock } from './to-anthropic-content.js';

/** Stands in for the user turn Anthropic requires before a conversation that opens with the assistant. */
const OPENING_USER_TEXT = '(conversation continues)';

function toBlock(part: ContentPart): AnthropicContentBlock | undefined {
  switch (part.type) {
    case 'text':
      return part.text.length > 0 ? toTextBlock(part) : undefined;
    case 'image':
      return toImageBlock(part);
    case 'document':
      return toDocumentBlock(part);
    case 'tool_call':
      return toToolUseBlock(part);
    case 'tool_result':
      return toToolResultBlock(part);
    case 'thinking':
      return toThinkingBlock(part);
  }
}

interface Turn {
  role: 'user' | 'assistant';
  /** Tool results lead a user turn; everything else follows in order. */
  results: AnthropicContentBlock[];
  rest: AnthropicContentBlock[];
}

export function toAnthropicTurns(messages: ChatMessage[]): AnthropicMessage[] {
  const turns: Turn[] = [];
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    let turn = turns[turns.length - 1];
    if (!turn || turn.role !== role) {
      turn = { role, results: [], rest: [] };
      turns.push(turn);
    }
    for (const part of message.content) {
      const block = toBlock(part);
      if (!block) continue;
      (block.type === 'tool_result' ? turn.results : turn.rest).push(block);
    }
    if (turn.results.length === 0 && turn.rest.length === 0) turns.pop();
  }
  // Dropping empty turns can leave two turns of one role side by side: merge them.
  const merged: Turn[] = [];
  for (const turn of turns) {
    const last = merged[merged.length - 1];
    if (last && last.role === turn.role) {
      last.results.push(...turn.results);
      last.rest.push(...turn.rest);
    } else {
      merged.push(turn);
    }
  }
  if (merged.length > 0 && merged[0].role === 'assistant') {
    merged.unshift({ role: 'user', results: [], rest: [{ type: 'text', text: OPENING_USER_TEXT }] });
  }
  const last = merged[merged.length - 1];
  if (last?.role === 'assistant') {
    trimFinalAssistantText(last);
    if (last.rest.length === 0) merged.pop();
  }
  return merged.map((turn) => ({ role: turn.role, content: [...turn.results, ...turn.rest] }));
}

/** Anthropic rejects a final (prefilled) assistant turn ending in whitespace. */
function trimFinalAssistantText(turn: Turn): void {
  const block = turn.rest[turn.rest.length - 1];
  if (block?.type !== 'text') return;
  const trimmed = block.text.trimEnd();
  if (trimmed.length > 0) turn.rest[turn.rest.length - 1] = { ...block, text: trimmed };
  else turn.rest.pop();
}
