/**
 * A local estimate of a request's input tokens for `count_tokens`. Anthropic's tokenizer is
 * not public, so text is counted with an OpenAI BPE (close for English prose); media count
 * as fixed amounts in the range Anthropic documents for a typical image or PDF page.
 */
import { countTextTokens as countTokens } from '../../core/tokenizer.js';
import type { ChatRequest, ContentPart, MediaSource } from '../../core/chat.js';

const IMAGE_TOKENS = 1_600;
const PDF_TOKENS_PER_100KB = 1_500;
/** Per-message framing (role markers) in Anthropic's prompt format. */
const MESSAGE_OVERHEAD = 3;

function mediaTokens(source: MediaSource, isImage: boolean): number {
  if (source.kind === 'text') return countTokens(source.text);
  if (isImage) return IMAGE_TOKENS;
  const bytes = source.kind === 'base64' ? Math.floor((source.data.length * 3) / 4) : 100_000;
  return Math.max(PDF_TOKENS_PER_100KB, Math.ceil(bytes / 100_000) * PDF_TOKENS_PER_100KB);
}

function partTokens(part: ContentPart): number {
  switch (part.type) {
    case 'text':
      return countTokens(part.text);
    case 'image':
      return mediaTokens(part.source, true);
    case 'document':
      return mediaTokens(part.source, false) + (part.title ? countTokens(part.title) : 0) + (part.context ? countTokens(part.context) : 0);
    case 'tool_call':
      return countTokens(part.name) + countTokens(part.arguments);
    case 'tool_result':
      return typeof part.content === 'string' ? countTokens(part.content) : part.content.reduce((sum, inner) => sum + partTokens(inner), 0);
    case 'thinking':
      return countTokens(part.text);
  }
}

export function estimateInputTokens(request: ChatRequest): number {
  let total = 0;
  for (const part of request.system ?? []) total += countTokens(part.text);
  for (const message of request.messages) {
    total += MESSAGE_OVERHEAD;
    for (const part of message.content) total += partTokens(part);
  }
  for (const tool of request.tools ?? []) {
    total += countTokens(JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
  }
  return total;
}
