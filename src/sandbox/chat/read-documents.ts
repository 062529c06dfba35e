/**
 * What the sandbox makes of each document of a request: PDFs are read for real (pages, text),
 * text documents are text, linked documents are not fetched, other types are not read.
 */
import type { ChatRequest, DocumentPart } from '../../core/chat.js';
import { decodeTextDocument, isPdfMediaType, isTextMediaType } from '../../core/document-bytes.js';
import { parseBase64DataUrl } from '../../core/wire/openai-data-url.js';
import { readPdf } from './read-pdf.js';

export type DocumentReading =
  | { kind: 'pdf'; pages: number; text: string; unreadPages?: number }
  | { kind: 'unreadable_pdf'; reason: string }
  | { kind: 'text'; text: string }
  | { kind: 'linked' }
  | { kind: 'other'; mediaType: string };

/** Readings by document part (the parts of the request itself, by identity). */
export type DocumentReadings = ReadonlyMap<DocumentPart, DocumentReading>;

export async function readDocuments(request: ChatRequest, signal?: AbortSignal): Promise<DocumentReadings> {
  const readings = new Map<DocumentPart, DocumentReading>();
  for (const message of request.messages) {
    for (const part of message.content) {
      if (part.type === 'document') readings.set(part, await readDocument(part, signal));
    }
  }
  return readings;
}

async function readDocument(part: DocumentPart, signal: AbortSignal | undefined): Promise<DocumentReading> {
  const source = part.source;
  if (source.kind === 'text') return { kind: 'text', text: source.text };
  let mediaType: string;
  let data: string;
  if (source.kind === 'url') {
    const inline = parseBase64DataUrl(source.url);
    if (!inline) return { kind: 'linked' };
    mediaType = inline.mediaType;
    data = inline.data;
  } else {
    mediaType = source.mediaType;
    data = source.data;
  }
  if (isTextMediaType(mediaType)) return { kind: 'text', text: decodeTextDocument(data) };
  if (!isPdfMediaType(mediaType)) return { kind: 'other', mediaType };
  const bytes = Buffer.from(data, 'base64');
  const reading = await readPdf(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), signal);
  if (!reading.ok) return { kind: 'unreadable_pdf', reason: reading.reason };
  return reading.unreadPages
    ? { kind: 'pdf', pages: reading.pages, text: reading.text, unreadPages: reading.unreadPages }
    : { kind: 'pdf', pages: reading.pages, text: reading.text };
}
