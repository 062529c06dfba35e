/**
 * What a chat request needs of the model that answers it, read from the canonical request in
 * one pass over its parts: the capabilities (`tools`, `vision`, `pdf`, `json_schema`) and a cheap
 * upper bound of its input tokens. A thinking budget is no need: the providers drop it for a model
 * that does not think (`reasoning` in the catalog is information, not a filter). The exact count (the tokenizer) is
 * left to `fit-channels.ts`, which asks for it only when the bound exceeds a candidate's limit.
 */
import type { ChatRequest, ContentPart, DocumentPart } from '../core/chat.js';
import { countPromptTokens, DOCUMENT_INPUT_TOKENS, IMAGE_INPUT_TOKENS } from '../core/count-prompt-tokens.js';
import { loadTokenizer } from '../core/tokenizer.js';
import type { ModelCapability } from '../config/types.js';

export interface RequestNeeds {
  capabilities: ReadonlySet<ModelCapability>;
  /** No count of the request's input tokens can exceed this (UTF-16 units × 3 bytes, images and documents at their flat cost). */
  inputTokensAtMost: number;
  /** The gateway's count of the input tokens (the one budgets use); loads the tokenizer. */
  inputTokens(): Promise<number>;
}

/** A UTF-16 unit is at most 3 UTF-8 bytes, and a token covers at least one byte. */
const MAX_TOKENS_PER_CHAR = 3;

export function chatRequestNeeds(request: ChatRequest): RequestNeeds {
  const capabilities = new Set<ModelCapability>();
  let chars = 0;
  let flat = 0;
  const visit = (part: ContentPart): void => {
    switch (part.type) {
      case 'text':
      case 'thinking':
        chars += part.text.length;
        break;
      case 'image':
        capabilities.add('vision');
        flat += IMAGE_INPUT_TOKENS;
        break;
      case 'document':
        if (isPdf(part)) capabilities.add('pdf');
        if (part.source.kind === 'text') chars += part.source.text.length;
        else flat += DOCUMENT_INPUT_TOKENS;
        break;
      case 'tool_call':
        capabilities.add('tools');
        chars += part.arguments.length + part.name.length;
        break;
      case 'tool_result':
        capabilities.add('tools');
        if (typeof part.content === 'string') chars += part.content.length;
        else for (const inner of part.content) visit(inner);
        break;
    }
  };
  for (const part of request.system ?? []) chars += part.text.length;
  for (const message of request.messages) for (const part of message.content) visit(part);
  if (request.tools && request.tools.length > 0) {
    capabilities.add('tools');
    chars += JSON.stringify(request.tools).length;
  }
  if (request.responseFormat?.type === 'json_schema') capabilities.add('json_schema');
  return {
    capabilities,
    inputTokensAtMost: chars * MAX_TOKENS_PER_CHAR + flat,
    async inputTokens() {
      await loadTokenizer();
      return countPromptTokens(request);
    },
  };
}

/** A document is a PDF by its media type, or (a link without one) by its name. */
function isPdf(part: DocumentPart): boolean {
  const { mediaType } = part.source;
  if (mediaType) return mediaType.toLowerCase() === 'application/pdf';
  return part.source.kind === 'url' && /\.pdf([?#]|$)/i.test(part.source.url);
}
