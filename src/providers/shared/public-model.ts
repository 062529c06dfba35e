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
