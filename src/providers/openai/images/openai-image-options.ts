/** Canonical image options (camelCase) → the OpenAI Images request fields they stand for. */
import { OPENAI_IMAGE_OPTION_FIELDS, type OpenAIImageOption } from '../../../core/wire/openai-images-types.js';

/** The options this upstream takes, as wire fields; `inputFidelity` only on edits. */
export function openAIImageOptionFields(options: Record<string, unknown> | undefined, operation: 'generate' | 'edit'): Record<string, string | number> {
  const fields: Record<string, string | number> = {};
  if (!options) return fields;
  for (const [key, wire] of Object.entries(OPENAI_IMAGE_OPTION_FIELDS) as Array<[OpenAIImageOption, string]>) {
    if (key === 'inputFidelity' && operation !== 'edit') continue;
    const value = options[key];
    if (typeof value === 'string' || typeof value === 'number') fields[wire] = value;
  }
  return fields;
}
