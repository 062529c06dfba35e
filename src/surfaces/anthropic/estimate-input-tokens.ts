/**
 * A local estimate of a request's input tokens for `count_tokens`. Anthropic's tokenizer is
 * not public, so text is counted with an OpenAI BPE (close for English prose); media count
 * as fixed amounts in the range Anthropic documents for a typical image or PDF page. All the
 * texts are counted in one bounded call (see core/tokenizer.ts), whatever their size.
 */
import { countTextsTokens } from '../../core/tokenizer.js';
import type { ChatRequest, ContentPart, MediaSource } from '../../core/chat.js';

const IMAGE_TOKENS = 1_600;
const PDF_TOKENS_PER_100KB = 1_500;
/** Per-message framing (role markers) in Anthropic's prompt format. */
const MESSAGE_OVERHEAD = 3;

interface Tally {
  texts: string[];
  flat: number;
}

function addMedia(tally: Tally, source: MediaSource, isImage: boolean): void {
  if (source.kind === 'text') {
    tally.texts.push(source.text);
    return;
  }
  if (isImage) {
    tally.flat += IMAGE_TOKENS;
    return;
  }
  const bytes = source.kind === 'base64' ? Math.floor((source.data.length * 3) / 4) : 100_000;
  tally.flat += Math.max(PDF_TOKENS_PER_100KB, Math.ceil(bytes / 100_000) * PDF_TOKENS_PER_100KB);
}

function addPart(tally: Tally, part: ContentPart): void {
  switch (part.type) {
    case 'text':
    case 'thinking':
      tally.texts.push(part.text);
      return;
    case 'image':
      addMedia(tally, part.source, true);
      return;
    case 'document':
      addMedia(tally, part.source, false);
      if (part.title) tally.texts.push(part.title);
      if (part.context) tally.texts.push(part.context);
      return;
    case 'tool_call':
      tally.texts.push(part.name, part.arguments);
      return;
    case 'tool_result':
      if (typeof part.content === 'string') tally.texts.push(part.content);
      else for (const inner of part.content) addPart(tally, inner);
  }
}

export function estimateInputTokens(request: ChatRequest): number {
  const tally: Tally = { texts: [], flat: 0 };
  for (const part of request.system ?? []) tally.texts.push(part.text);
  for (const message of request.messages) {
    tally.flat += MESSAGE_OVERHEAD;
    for (const part of message.content) addPart(tally, part);
  }
  for (const tool of request.tools ?? []) {
    tally.texts.push(JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
  }
  return countTextsTokens(tally.texts) + tally.flat;
}
