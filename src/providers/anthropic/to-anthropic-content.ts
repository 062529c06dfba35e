/**
 * Canonical content parts → Anthropic content blocks (one part at a time).
 */
import type { CacheControl, DocumentPart, ImagePart, TextPart, ThinkingPart, ToolCallPart, ToolResultPart } from '../../core/chat.js';
import { decodeTextDocument, isPdfMediaType, isTextMediaType } from '../../core/document-bytes.js';
import { GatewayError } from '../../core/errors.js';
import type {
  AnthropicCacheControl,
  AnthropicDocumentBlock,
  AnthropicImageBlock,
  AnthropicRedactedThinkingBlock,
  AnthropicTextBlock,
  AnthropicThinkingBlock,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
} from '../../core/wire/anthropic-types.js';

const DATA_URL = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s;

function cacheControl(value: CacheControl | undefined): { cache_control?: AnthropicCacheControl } {
  if (!value) return {};
  return { cache_control: value.ttl ? { type: 'ephemeral', ttl: value.ttl } : { type: 'ephemeral' } };
}

/** Anthropic tool ids must match `^[a-zA-Z0-9_-]+$`; ids from other dialects may not. */
function anthropicToolId(id: string): string {
  const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned.length > 0 ? cleaned : 'toolu_empty';
}

export function toTextBlock(part: TextPart): AnthropicTextBlock {
  return { type: 'text', text: part.text, ...cacheControl(part.cacheControl) };
}

export function toImageBlock(part: ImagePart): AnthropicImageBlock | AnthropicTextBlock {
  const source = part.source;
  if (source.kind === 'base64') {
    return { type: 'image', source: { type: 'base64', media_type: source.mediaType, data: source.data }, ...cacheControl(part.cacheControl) };
  }
  if (source.kind === 'url') {
    // OpenAI clients inline images as data: URLs, which Anthropic only takes as base64 sources.
    const inline = DATA_URL.exec(source.url);
    const wire = inline
      ? { type: 'base64' as const, media_type: inline[1] ?? source.mediaType ?? 'image/png', data: inline[2] }
      : { type: 'url' as const, url: source.url };
    return { type: 'image', source: wire, ...cacheControl(part.cacheControl) };
  }
  return { type: 'text', text: source.text, ...cacheControl(part.cacheControl) };
}

function documentSource(part: DocumentPart): AnthropicDocumentBlock['source'] {
  const source = part.source;
  if (source.kind === 'text') return { type: 'text', media_type: 'text/plain', data: source.text };
  let mediaType = source.mediaType;
  let data: string;
  if (source.kind === 'url') {
    const inline = DATA_URL.exec(source.url);
    if (!inline) return linkedDocument(source.url);
    mediaType = inline[1] ?? mediaType;
    data = inline[2];
  } else {
    data = source.data;
  }
  if (mediaType === undefined || isPdfMediaType(mediaType)) return { type: 'base64', media_type: 'application/pdf', data };
  if (isTextMediaType(mediaType)) return { type: 'text', media_type: 'text/plain', data: decodeTextDocument(data) };
  throw new GatewayError('invalid_request', `documents of type ${mediaType} are not supported by this model; use PDF or plain text`);
}

/** Anthropic fetches public http(s) documents itself; Gemini Files API and Cloud Storage URIs it cannot read. */
function linkedDocument(url: string): AnthropicDocumentBlock['source'] {
  if (!/^https?:\/\//i.test(url) || /^https:\/\/generativelanguage\.googleapis\.com\//i.test(url)) {
    throw new GatewayError('invalid_request', `the document ${url} cannot be fetched by this model; send it inline as base64 or give a public http(s) URL`);
  }
  return { type: 'url', url };
}

export function toDocumentBlock(part: DocumentPart): AnthropicDocumentBlock {
  const block: AnthropicDocumentBlock = { type: 'document', source: documentSource(part) };
  const title = part.title ?? part.filename;
  if (title !== undefined) block.title = title;
  if (part.context !== undefined) block.context = part.context;
  return { ...block, ...cacheControl(part.cacheControl) };
}

/** Tool arguments as Anthropic's `input` object; arguments that are not a JSON object become `{}`. */
export function toToolInput(argumentsJson: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(argumentsJson);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function toToolUseBlock(part: ToolCallPart): AnthropicToolUseBlock {
  return { type: 'tool_use', id: anthropicToolId(part.id), name: part.name, input: toToolInput(part.arguments) };
}

export function toToolResultBlock(part: ToolResultPart): AnthropicToolResultBlock {
  const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: anthropicToolId(part.toolCallId) };
  if (typeof part.content === 'string') {
    block.content = part.content;
  } else {
    block.content = part.content.map((inner) => (inner.type === 'text' ? toTextBlock(inner) : toImageBlock(inner)));
  }
  if (part.isError) block.is_error = true;
  return block;
}

/** Unsigned thinking (from other vendors) cannot be replayed to Anthropic, which verifies signatures. */
export function toThinkingBlock(part: ThinkingPart): AnthropicThinkingBlock | AnthropicRedactedThinkingBlock | undefined {
  if (part.redacted !== undefined) return { type: 'redacted_thinking', data: part.redacted };
  if (part.signature === undefined || part.signature.length === 0) return undefined;
  return { type: 'thinking', thinking: part.text, signature: part.signature };
}
