/**
 * A Responses `message` item's content → canonical parts, with the content as stored (always
 * a list of parts: a string becomes one `input_text`, or one `output_text` for the
 * assistant). Which parts a message may hold depends on its role: users send text, images
 * and files; system and developer messages text; the assistant's own turns `output_text` and
 * `refusal` (a refusal is kept as the text it said).
 */
import type { DocumentPart, ImagePart, TextPart } from '../../core/chat.js';
import { describeValue } from '../../core/describe-value.js';
import { invalidRequest } from '../../core/errors.js';
import { describe, requireArray, requireObject, requireString, type Json } from '../../core/validate.js';
import { parseInputFile, parseInputImage } from './parse-input-media.js';

export type MessageRole = 'user' | 'system' | 'developer' | 'assistant';

export interface ParsedContent {
  parts: Array<TextPart | ImagePart | DocumentPart>;
  wire: Json[];
}

const PART_TYPES: Record<MessageRole, readonly string[]> = {
  user: ['input_text', 'input_image', 'input_file'],
  system: ['input_text'],
  developer: ['input_text'],
  assistant: ['output_text', 'refusal', 'input_text'],
};

export function parseMessageContent(value: unknown, role: MessageRole, param: string): ParsedContent {
  if (typeof value === 'string') {
    const wire: Json = role === 'assistant' ? { type: 'output_text', text: value, annotations: [] } : { type: 'input_text', text: value };
    return { parts: [{ type: 'text', text: value }], wire: [wire] };
  }
  if (value === undefined || value === null) throw invalidRequest(`${param}: is required`, param);
  if (!Array.isArray(value)) throw invalidRequest(`${param}: expected a string or an array of content parts, got ${describe(value)}`, param);
  if (value.length === 0 && role !== 'assistant') throw invalidRequest(`${param}: must not be an empty array`, param);
  const parsed: ParsedContent = { parts: [], wire: [] };
  requireArray(value, param).forEach((item, j) => {
    const at = `${param}[${j}]`;
    const part = requireObject(item, at);
    const type = requireString(part.type, `${at}.type`);
    const allowed = PART_TYPES[role];
    if (!allowed.includes(type)) {
      throw invalidRequest(`${at}.type: a ${role} message holds ${allowed.map((t) => `"${t}"`).join(', ')} parts, got ${describeValue(type)}`, `${at}.type`);
    }
    switch (type) {
      case 'input_text': {
        const text = requireString(part.text, `${at}.text`);
        parsed.parts.push({ type: 'text', text });
        parsed.wire.push({ type, text });
        return;
      }
      case 'output_text': {
        const text = requireString(part.text, `${at}.text`);
        parsed.parts.push({ type: 'text', text });
        const annotations = part.annotations === undefined || part.annotations === null ? [] : requireArray(part.annotations, `${at}.annotations`);
        parsed.wire.push({ type, text, annotations });
        return;
      }
      case 'refusal': {
        const refusal = requireString(part.refusal, `${at}.refusal`);
        parsed.parts.push({ type: 'text', text: refusal });
        parsed.wire.push({ type, refusal });
        return;
      }
      case 'input_image':
        push(parsed, parseInputImage(part, at));
        return;
      case 'input_file':
        push(parsed, parseInputFile(part, at));
        return;
    }
  });
  return parsed;
}

function push(parsed: ParsedContent, { part, wire }: { part: ImagePart | DocumentPart; wire: Json }): void {
  parsed.parts.push(part);
  parsed.wire.push(wire);
}
