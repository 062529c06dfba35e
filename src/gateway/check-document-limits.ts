/**
 * Checks a chat request's inline documents before any upstream is called: each within the
 * configured size (decoded bytes), base64 that is base64, and PDFs that start like a PDF.
 * Runs on every path, pass-through included, so no upstream sees a request we would refuse.
 */
import type { ChatRequest, DocumentPart } from '../core/chat.js';
import type { PeekedDocument } from '../core/peeked-chat-request.js';
import { decodedBase64Length, isBase64, isPdfMediaType, startsLikePdf } from '../core/document-bytes.js';
import { GatewayError, invalidRequest } from '../core/errors.js';
import { parseBase64DataUrl } from '../core/wire/openai-data-url.js';

export function checkDocumentLimits(request: ChatRequest, maxBytes: number): void {
  for (let i = 0; i < request.messages.length; i++) {
    const content = request.messages[i].content;
    for (let j = 0; j < content.length; j++) {
      const part = content[j];
      if (part.type === 'document') checkDocument(part, maxBytes, `messages[${i}].content[${j}]`);
    }
  }
}

/** The same size limit for a pass-through request read by a surface's light reader. */
export function checkPeekedDocuments(documents: readonly PeekedDocument[], maxBytes: number): void {
  for (const document of documents) checkSize(document.bytes, maxBytes, document.param);
}

function checkDocument(part: DocumentPart, maxBytes: number, param: string): void {
  const source = part.source;
  if (source.kind === 'text') {
    checkSize(Buffer.byteLength(source.text, 'utf8'), maxBytes, param);
    return;
  }
  if (source.kind === 'url') {
    // Only `data:` URLs carry bytes; linked documents are the upstream's to fetch.
    const inline = parseBase64DataUrl(source.url);
    if (inline) checkBase64(inline.data, inline.mediaType, maxBytes, param);
    return;
  }
  checkBase64(source.data, source.mediaType, maxBytes, param);
}

function checkBase64(data: string, mediaType: string, maxBytes: number, param: string): void {
  // Size first: it needs only the length, and spares scanning an oversize document.
  checkSize(decodedBase64Length(data), maxBytes, param);
  if (!isBase64(data)) throw invalidRequest(`${param}: the document's data is not valid base64`, param);
  if (isPdfMediaType(mediaType) && !startsLikePdf(data)) {
    throw invalidRequest(`${param}: the document is declared as application/pdf but is not a PDF (it does not start with %PDF-)`, param);
  }
}

function checkSize(bytes: number, maxBytes: number, param: string): void {
  if (bytes <= maxBytes) return;
  throw new GatewayError('request_too_large', `${param}: the document is ${formatBytes(bytes)}, more than the limit of ${formatBytes(maxBytes)} per document`, {
    param,
    code: 'document_too_large',
  });
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB (${bytes} bytes)`;
  return `${bytes} bytes`;
}
