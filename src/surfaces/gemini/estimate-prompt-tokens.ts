/**
 * An estimate of a request's prompt tokens for `countTokens`. Gemini's tokenizer is not
 * public, so text is counted with the o200k tokenizer of `gpt-tokenizer`; each image or
 * binary document counts 258 tokens, what Gemini charges for an image up to 384×384.
 */
import { countTextTokens } from '../../core/tokenizer.js';
import type { ChatRequest, ContentPart } from '../../core/chat.js';

const MEDIA_TOKENS = 258;
// Client text may contain `<|endoftext|>` and friends: count them as plain text, never throw.

export function estimatePromptTokens(request: ChatRequest): number {
  let total = 0;
  for (const part of request.system ?? []) total += textTokens(part.text);
  for (const message of request.messages) for (const part of message.content) total += partTokens(part);
  for (const tool of request.tools ?? []) {
    total += textTokens(tool.name) + textTokens(tool.description ?? '') + textTokens(JSON.stringify(tool.parameters));
  }
  return total;
}

function partTokens(part: ContentPart): number {
  switch (part.type) {
    case 'text':
    case 'thinking':
      return textTokens(part.text);
    case 'tool_call':
      return textTokens(part.name) + textTokens(part.arguments);
    case 'tool_result':
      if (typeof part.content === 'string') return textTokens(part.name ?? '') + textTokens(part.content);
      return part.content.reduce((sum, inner) => sum + partTokens(inner), textTokens(part.name ?? ''));
    case 'image':
      return MEDIA_TOKENS;
    case 'document':
      return part.source.kind === 'text' ? textTokens(part.source.text) : MEDIA_TOKENS;
  }
}

function textTokens(text: string): number {
  return countTextTokens(text);
}
