/**
 * An estimate of a request's prompt tokens for `countTokens`. Gemini's tokenizer is not
 * public, so text is counted with the o200k tokenizer of `gpt-tokenizer`; each image or
 * binary document counts 258 tokens, what Gemini charges for an image up to 384×384. All the
 * texts are counted in one bounded call (see core/tokenizer.ts), whatever their size; client
 * text may contain `<|endoftext|>` and friends, which count as plain text.
 */
import { countTextsTokens } from '../../core/tokenizer.js';
import type { ChatRequest, ContentPart } from '../../core/chat.js';

const MEDIA_TOKENS = 258;

interface Tally {
  texts: string[];
  flat: number;
}

function addPart(tally: Tally, part: ContentPart): void {
  switch (part.type) {
    case 'text':
    case 'thinking':
      tally.texts.push(part.text);
      return;
    case 'tool_call':
      tally.texts.push(part.name, part.arguments);
      return;
    case 'tool_result':
      tally.texts.push(part.name ?? '');
      if (typeof part.content === 'string') tally.texts.push(part.content);
      else for (const inner of part.content) addPart(tally, inner);
      return;
    case 'image':
      tally.flat += MEDIA_TOKENS;
      return;
    case 'document':
      if (part.source.kind === 'text') tally.texts.push(part.source.text);
      else tally.flat += MEDIA_TOKENS;
  }
}

export function estimatePromptTokens(request: ChatRequest): number {
  const tally: Tally = { texts: [], flat: 0 };
  for (const part of request.system ?? []) tally.texts.push(part.text);
  for (const message of request.messages) for (const part of message.content) addPart(tally, part);
  for (const tool of request.tools ?? []) tally.texts.push(tool.name, tool.description ?? '', JSON.stringify(tool.parameters));
  return countTextsTokens(tally.texts) + tally.flat;
}
