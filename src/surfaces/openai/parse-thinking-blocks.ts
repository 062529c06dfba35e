/**
 * An assistant message's `thinking_blocks` (the signed thinking gengate and LiteLLM return,
 * echoed back by the client) → canonical thinking parts, in order. Blocks of an unknown type
 * are ignored, like unknown fields.
 */
import type { ThinkingPart } from '../../core/chat.js';
import { optionalString, requireArray, requireObject, requireString } from '../../core/validate.js';

export function parseThinkingBlocks(value: unknown, param: string): ThinkingPart[] {
  if (value === undefined || value === null) return [];
  const parts: ThinkingPart[] = [];
  requireArray(value, param).forEach((item, i) => {
    const at = `${param}[${i}]`;
    const block = requireObject(item, at);
    if (block.type === 'thinking') {
      const text = requireString(block.thinking, `${at}.thinking`);
      const signature = optionalString(block.signature, `${at}.signature`);
      parts.push(signature ? { type: 'thinking', text, signature } : { type: 'thinking', text });
    } else if (block.type === 'redacted_thinking') {
      parts.push({ type: 'thinking', text: '', redacted: requireString(block.data, `${at}.data`) });
    }
  });
  return parts;
}
