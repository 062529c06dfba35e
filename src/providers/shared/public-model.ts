/** Naming the public model id in a pass-through answer instead of the upstream's name. */
import type { RawChatRequest } from '../../core/passthrough.js';
import { findMember, replaceValue, valueIs } from './json-members.js';

/** The id to put in the answer, or undefined when the answer is left as the upstream wrote it. */
export function publicModelOf(raw: RawChatRequest): string | undefined {
  if (raw.publicModel === false) return undefined;
  if (raw.model !== undefined) return raw.model;
  return typeof raw.body.model === 'string' ? raw.body.model : undefined;
}

/**
 * The JSON text with the string member `key` at `depth` (1 = top level) set to `model`; the
 * same string when there is no such member or it already names `model`.
 */
export function renameModel(text: string, key: string, depth: number, model: string): string {
  const span = findMember(text, key, depth);
  if (!span || text.charCodeAt(span.valueStart) !== 34 /* " */) return text;
  const value = JSON.stringify(model);
  return valueIs(text, span, value) ? text : replaceValue(text, span, value);
}

/**
 * `renameModel` for the member `key` at depth 1, done on the answer's bytes for the common
 * shape (the member comes before any nested value, string or escape that could hide where it
 * is): the same bytes when it already names `model`. Undefined when the shape is another one
 * or the bytes are not valid UTF-8; the caller then uses `renameModel` on the text.
 */
export function renameModelBytes(bytes: Buffer, key: string, model: string): Buffer | undefined {
  const at = bytes.indexOf(`"${key}"`);
  if (at === -1) return undefined;
  let i = skipSpaceBytes(bytes, 0);
  if (bytes[i] !== 123 /* { */) return undefined;
  let quotes = 0;
  for (i++; i < at; i++) {
    const c = bytes[i];
    if (c === 34) quotes++;
    else if (c === 123 || c === 125 || c === 91 || c === 93 || c === 92) return undefined;
  }
  if (quotes % 2 !== 0) return undefined;
  const colon = skipSpaceBytes(bytes, at + key.length + 2);
  if (bytes[colon] !== 58 /* : */) return undefined;
  const valueStart = skipSpaceBytes(bytes, colon + 1);
  if (bytes[valueStart] !== 34) return undefined;
  const valueEnd = bytes.indexOf(34, valueStart + 1) + 1;
  if (valueEnd === 0) return undefined;
  for (let j = valueStart + 1; j < valueEnd; j++) if (bytes[j] === 92 /* \\ */) return undefined;
  const value = Buffer.from(JSON.stringify(model), 'utf8');
  if (valueEnd - valueStart === value.length && value.compare(bytes, valueStart, valueEnd) === 0) return bytes;
  return Buffer.concat([bytes.subarray(0, valueStart), value, bytes.subarray(valueEnd)]);
}

function skipSpaceBytes(bytes: Buffer, from: number): number {
  let i = from;
  for (let c = bytes[i]; c === 32 || c === 10 || c === 13 || c === 9; c = bytes[++i]);
  return i;
}
