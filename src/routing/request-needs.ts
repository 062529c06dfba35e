/**
 * What a chat request needs of the model that answers it, read from the canonical request in
 * one pass over its parts: the capabilities (`tools`, `vision`, `pdf`, `json_schema`), whether it
 * asks for thinking, and a cheap upper bound of its input tokens. The exact count (the tokenizer)
 * is left to `fit-channels.ts`, which asks for it only when the bound exceeds a candidate's limit.
 * Reading the needs takes the canonical form (a pass-through request's parse), so
 * `fit-channels.ts` first decides from what is known without it: the bound of a body's bytes
 * (`inputTokensOfBody`) and what every candidate declares.
 */
import type { ChatRequest, ContentPart, DocumentPart } from '../core/chat.js';
import { countPromptTokens, DOCUMENT_INPUT_TOKENS, IMAGE_INPUT_TOKENS } from '../core/count-prompt-tokens.js';
import { loadTokenizer } from '../core/tokenizer.js';
import type { ModelCapability } from '../config/types.js';

export interface RequestNeeds {
  /** What a model must take, or the request is refused there (`reasoning` is never among them). */
  capabilities: ReadonlySet<ModelCapability>;
  /** The request asks for thinking (a budget above 0): channels whose model declares `reasoning` are preferred. */
  thinking: boolean;
  /** No count of the request's input tokens can exceed this (UTF-16 units × 3 bytes, images and documents at their flat cost). */
  inputTokensAtMost: number;
  /** The gateway's count of the input tokens (the one budgets use); loads the tokenizer. */
  inputTokens(): Promise<number>;
}

/** What the attempt plan is given of a request: what is known at no cost, and how to read the rest. */
export interface RequestNeedsSource {
  /** A bound of the input tokens known without reading the request (`inputTokensOfBody`); absent: none. */
  inputTokensAtMost?: number;
  /** The needs, read from the canonical form; undefined when the request cannot be read (no filter). */
  read(): RequestNeeds | undefined;
}

/** Every capability whose lack refuses a request: a model that declares them all can take any request. */
export const REFUSING_CAPABILITIES: readonly ModelCapability[] = ['tools', 'vision', 'pdf', 'json_schema'];

/** A UTF-16 unit is at most 3 UTF-8 bytes, and a token covers at least one byte. */
const MAX_TOKENS_PER_CHAR = 3;

/**
 * The fewest bytes of JSON any dialect spends on an image or a document part: an object in an
 * array holding a nested object with a value (`{"fileData":{"fileUri":"a"}}` is 29; Anthropic's
 * and OpenAI's are longer). Each costs at most `DOCUMENT_INPUT_TOKENS` when counted.
 */
const MIN_MEDIA_PART_BYTES = 16;

/**
 * Input tokens per byte of a request body, at most: text counts at most a token per UTF-8 byte
 * of the text, which its JSON spells in at least as many bytes (escapes only lengthen it, the
 * joining newlines are paid by the quotes); an image or a document counts a flat amount for at
 * least `MIN_MEDIA_PART_BYTES` bytes.
 */
export const MAX_TOKENS_PER_BODY_BYTE = Math.ceil(Math.max(IMAGE_INPUT_TOKENS, DOCUMENT_INPUT_TOKENS) / MIN_MEDIA_PART_BYTES);

/**
 * No count of the input tokens of a request whose canonical form is read from a JSON body of
 * `bytes` bytes, and from nothing else, can exceed this.
 */
export function inputTokensOfBody(bytes: number): number {
  return bytes * MAX_TOKENS_PER_BODY_BYTE;
}

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
    thinking: request.thinkingBudget !== undefined && request.thinkingBudget > 0,
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
