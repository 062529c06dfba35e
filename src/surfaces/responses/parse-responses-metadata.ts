/**
 * Responses `metadata` within OpenAI's documented bounds: at most 16 pairs, keys of at most 64
 * characters, string values of at most 512. Stored with the response and echoed as given.
 */
import { checkStorableText } from '../../core/client-strings.js';
import { describeValue } from '../../core/describe-value.js';
import { invalidRequest } from '../../core/errors.js';
import { describe, requireObject } from '../../core/validate.js';

const MAX_METADATA_PAIRS = 16;
const MAX_METADATA_KEY_CHARS = 64;
const MAX_METADATA_VALUE_CHARS = 512;

export function parseResponsesMetadata(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  const metadata = requireObject(value, 'metadata');
  const keys = Object.keys(metadata);
  if (keys.length > MAX_METADATA_PAIRS) {
    throw invalidRequest(`metadata: ${keys.length} pairs is more than the ${MAX_METADATA_PAIRS} allowed`, 'metadata');
  }
  const parsed: Record<string, string> = {};
  for (const key of keys) {
    if (key.length > MAX_METADATA_KEY_CHARS) {
      throw invalidRequest(`metadata: the key ${describeValue(key)} is longer than ${MAX_METADATA_KEY_CHARS} characters`, 'metadata');
    }
    checkStorableText(key, 'metadata');
    const param = `metadata.${key}`;
    const entry = metadata[key];
    if (typeof entry !== 'string') throw invalidRequest(`${param}: expected a string, got ${describe(entry)}`, param);
    if (entry.length > MAX_METADATA_VALUE_CHARS) throw invalidRequest(`${param}: must be at most ${MAX_METADATA_VALUE_CHARS} characters`, param);
    parsed[key] = checkStorableText(entry, param);
  }
  return parsed;
}
