/**
 * A Responses `reasoning` item → a canonical thinking part. Its `encrypted_content` is what the
 * gateway sealed when it rendered the reasoning (the vendor's signature or redacted thinking,
 * the text the signature covers, and the provider kind that issued it); opened, it becomes a
 * thinking part with that proof and `origin`, which a provider of another kind leaves out. An
 * `encrypted_content` that does not open — OpenAI's own, or one from another deployment — is
 * dropped, not refused: no other vendor could read it anyway. A reasoning item without one is
 * unsigned thinking made of its text (which vendors that verify signatures leave out).
 */
import type { ThinkingPart } from '../../core/chat.js';
import type { SealedReasoning } from '../../core/responses.js';
import { oneOf, optionalString, requireArray, requireObject, requireString, type Json } from '../../core/validate.js';

export interface ParsedReasoning {
  /** Undefined when the item carries nothing a model could be given. */
  part?: ThinkingPart;
  wire: Json;
}

export function parseReasoningItem(item: Json, id: string, param: string, openReasoning: (sealed: string) => SealedReasoning | undefined): ParsedReasoning {
  const summary = textParts(item.summary, `${param}.summary`, 'summary_text');
  const content = textParts(item.content, `${param}.content`, 'reasoning_text');
  const encrypted = optionalString(item.encrypted_content, `${param}.encrypted_content`);
  const wire: Json = { type: 'reasoning', id, summary: summary.map((text) => ({ type: 'summary_text', text })) };
  if (item.content !== undefined && item.content !== null) wire.content = content.map((text) => ({ type: 'reasoning_text', text }));
  if (encrypted !== undefined) wire.encrypted_content = encrypted;
  const visible = content.length > 0 ? content.join('\n') : summary.join('\n\n');
  if (encrypted === undefined) return visible.length > 0 ? { part: { type: 'thinking', text: visible }, wire } : { wire };
  const sealed = openReasoning(encrypted);
  if (sealed === undefined) return { wire };
  const part: ThinkingPart = { type: 'thinking', text: sealed.text ?? visible, origin: sealed.provider };
  if (sealed.signature !== undefined) part.signature = sealed.signature;
  if (sealed.redacted !== undefined) part.redacted = sealed.redacted;
  return { part, wire };
}

function textParts(value: unknown, param: string, type: 'summary_text' | 'reasoning_text'): string[] {
  if (value === undefined || value === null) return [];
  return requireArray(value, param).map((item, i) => {
    const part = requireObject(item, `${param}[${i}]`);
    oneOf(part.type, `${param}[${i}].type`, [type]);
    return requireString(part.text, `${param}[${i}].text`);
  });
}
