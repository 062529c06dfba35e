/**
 * A local count of a chat request's input tokens, for answers whose upstream gave none (the
 * sandbox, abandoned streams). Callers load the tokenizer first.
 */
import type { ChatRequest, ContentPart, DocumentPart, ImagePart, TextPart } from './chat.js';
import { countTextTokens } from './tokenizer.js';

/** What a reader made of each document of the request (the sandbox reads PDFs), by part identity. */
type DocumentReadings = ReadonlyMap<DocumentPart, { kind: string; text?: string; unreadPages?: number }>;

/** Flat input cost of one image (the size of a low-detail image in OpenAI's accounting). */
export const IMAGE_INPUT_TOKENS = 85;
/** Flat input cost of a document the sandbox could not read (linked, unreadable or of another type; about one page). */
export const DOCUMENT_INPUT_TOKENS = 258;

const NOTHING_READ: DocumentReadings = new Map();

interface Tally {
  segments: string[];
  flat: number;
}

function addMixed(tally: Tally, content: string | Array<TextPart | ImagePart>): void {
  if (typeof content === 'string') {
    tally.segments.push(content);
    return;
  }
  for (const part of content) {
    if (part.type === 'text') tally.segments.push(part.text);
    else tally.flat += IMAGE_INPUT_TOKENS;
  }
}

/** A document counts its text (a PDF's extracted text) when there is one, else the flat cost. */
function addDocument(tally: Tally, part: DocumentPart, readings: DocumentReadings): void {
  const reading = readings.get(part);
  // Pages past the reading bounds cost the flat amount each.
  if (reading?.kind === 'pdf') tally.flat += (reading.unreadPages ?? 0) * DOCUMENT_INPUT_TOKENS;
  if ((reading?.kind === 'pdf' || reading?.kind === 'text') && reading.text !== undefined) tally.segments.push(reading.text);
  else if (reading === undefined && part.source.kind === 'text') tally.segments.push(part.source.text);
  else tally.flat += DOCUMENT_INPUT_TOKENS;
}

function addPart(tally: Tally, part: ContentPart, readings: DocumentReadings): void {
  switch (part.type) {
    case 'text':
    case 'thinking':
      tally.segments.push(part.text);
      break;
    case 'image':
      tally.flat += IMAGE_INPUT_TOKENS;
      break;
    case 'document':
      addDocument(tally, part, readings);
      break;
    case 'tool_call':
      tally.segments.push(part.name, part.arguments);
      break;
    case 'tool_result':
      addMixed(tally, part.content);
      break;
  }
}

/**
 * Input tokens of a chat request: the tokenizer's count over the system text, every text,
 * thinking, document text (extracted from PDFs that were read), tool-call (name, arguments)
 * and tool-result text, in order, then the tools' definitions as JSON, all joined by newlines
 * and counted once; plus a flat cost per image and per document without text.
 */
export function countPromptTokens(request: ChatRequest, readings: DocumentReadings = NOTHING_READ): number {
  const tally: Tally = { segments: [], flat: 0 };
  if (request.system) for (const part of request.system) tally.segments.push(part.text);
  for (const message of request.messages) for (const part of message.content) addPart(tally, part, readings);
  if (request.tools && request.tools.length > 0) tally.segments.push(JSON.stringify(request.tools));
  return countTextTokens(tally.segments.join('\n')) + tally.flat;
}
