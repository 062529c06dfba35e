import { invalidRequest } from '../../core/errors.js';
import { optionalString, requireString } from '../../core/validate.js';

/** A required, non-blank prompt. */
export function requirePrompt(value: unknown): string {
  const prompt = requireString(value, 'prompt');
  if (prompt.trim() === '') throw invalidRequest('prompt: must not be empty', 'prompt');
  return prompt;
}

/** An optional prompt; blank counts as none. */
export function optionalPrompt(value: unknown): string | undefined {
  const prompt = optionalString(value, 'prompt');
  return prompt?.trim() ? prompt : undefined;
}
