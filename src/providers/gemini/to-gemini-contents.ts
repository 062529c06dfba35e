/**
 * Canonical messages → Gemini `contents`. Gemini has two roles: assistant turns become
 * `model`, user and tool turns become `user` (tool results as `functionResponse` parts), and
 * consecutive turns of one role are merged, which is also how Gemini wants all the results
 * of one round of parallel calls: in a single turn.
 *
 * Thinking parts are left out: their signatures belong to whichever model wrote them and
 * Gemini rejects foreign ones. Gemini 3 instead requires a signature on the first function
 * call of each model turn; for histories it did not produce, Google documents the value
 * `skip_thought_signature_validator`.
 */
import type { ChatMessage, ContentPart, MediaSource, ToolResultPart } from '../../core/chat.js';
import { decodeTextDocument, isTextMediaType } from '../../core/document-bytes.js';
import { GatewayError } from '../../core/errors.js';
import { parseBase64DataUrl } from '../../core/wire/openai-data-url.js';
import type { GeminiContent, GeminiPart } from '../../core/wire/gemini-types.js';

const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

export function toGeminiContents(messages: ChatMessage[]): GeminiContent[] {
  const contents: Array<GeminiContent & { parts: GeminiPart[] }> = [];
  const callNames = new Map<string, string>();
  messages.forEach((message, m) => {
    const role = message.role === 'assistant' ? 'model' : 'user';
    const parts: GeminiPart[] = [];
    message.content.forEach((part, p) => {
      const converted = toGeminiPart(part, callNames, `messages[${m}].content[${p}]`);
      if (converted) parts.push(converted);
    });
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last !== undefined && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  });
  for (const content of contents) {
    if (content.role !== 'model') continue;
    const firstCall = content.parts.find((part) => part.functionCall !== undefined);
    if (firstCall && firstCall.thoughtSignature === undefined) firstCall.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
  }
  return contents;
}

function toGeminiPart(part: ContentPart, callNames: Map<string, string>, at: string): GeminiPart | undefined {
  switch (part.type) {
    case 'text':
      return part.text.length > 0 ? { text: part.text } : undefined;
    case 'image':
    case 'document':
      return mediaPart(part.source, part.type);
    case 'tool_call':
      callNames.set(part.id, part.name);
      return { functionCall: { name: part.name, args: parseArguments(part.arguments, at) } };
    case 'tool_result':
      return { functionResponse: { name: resultName(part, callNames, at), response: resultResponse(part) } };
    case 'thinking':
      return undefined;
  }
}

function mediaPart(source: MediaSource, kind: 'image' | 'document'): GeminiPart {
  switch (source.kind) {
    case 'base64':
      return inlinePart(source.mediaType, source.data, kind);
    case 'text':
      return { text: source.text };
    case 'url': {
      const inline = parseBase64DataUrl(source.url);
      if (inline) return inlinePart(inline.mediaType, inline.data, kind);
      const mimeType = source.mediaType ?? guessMimeType(source.url, kind);
      return { fileData: mimeType ? { mimeType, fileUri: source.url } : { fileUri: source.url } };
    }
  }
}

/** Text documents (plain, CSV, JSON…) go as text, which every Gemini model reads; PDFs and media as inline data. */
function inlinePart(mimeType: string, data: string, kind: 'image' | 'document'): GeminiPart {
  if (kind === 'document' && isTextMediaType(mimeType)) return { text: decodeTextDocument(data) };
  return { inlineData: { mimeType, data } };
}

const EXTENSION_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
  txt: 'text/plain',
};

function guessMimeType(url: string, kind: 'image' | 'document'): string | undefined {
  const path = url.split(/[?#]/, 1)[0];
  const extension = path.slice(path.lastIndexOf('.') + 1).toLowerCase();
  return EXTENSION_TYPES[extension] ?? (kind === 'document' ? 'application/pdf' : undefined);
}

function parseArguments(json: string, at: string): Record<string, unknown> {
  if (json.trim().length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new GatewayError('invalid_request', `${at}.arguments: tool call arguments are not valid JSON`, { param: `${at}.arguments` });
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new GatewayError('invalid_request', `${at}.arguments: tool call arguments must be a JSON object`, { param: `${at}.arguments` });
  }
  return value as Record<string, unknown>;
}

function resultName(part: ToolResultPart, callNames: Map<string, string>, at: string): string {
  const name = part.name ?? callNames.get(part.toolCallId);
  if (name === undefined) {
    throw new GatewayError('invalid_request', `${at}: the tool result for "${part.toolCallId}" answers no earlier tool call`, { param: at });
  }
  return name;
}

/** Gemini wants an object: a JSON-object result as is, anything else wrapped. Images are dropped. */
function resultResponse(part: ToolResultPart): Record<string, unknown> {
  const text =
    typeof part.content === 'string'
      ? part.content
      : part.content
          .filter((inner) => inner.type === 'text')
          .map((inner) => inner.text)
          .join('\n');
  if (part.isError) return { error: text };
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      const value: unknown = JSON.parse(text);
      if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
    } catch {
      // Text that merely starts with a brace.
    }
  }
  return { content: text };
}
