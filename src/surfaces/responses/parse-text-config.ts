/**
 * Responses `text` → the canonical response format, and `text` as a response object echoes it
 * (`format` defaults to plain text, `verbosity` to `medium`). `verbosity` has no canonical
 * counterpart: it is validated and echoed only.
 */
import type { ResponseFormat } from '../../core/chat.js';
import { describeValue } from '../../core/describe-value.js';
import { invalidRequest } from '../../core/errors.js';
import { oneOf, optionalBoolean, optionalString, requireObject, requireString, type Json } from '../../core/validate.js';

const FORMAT_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface ParsedTextConfig {
  format?: ResponseFormat;
  echo: { format: Json; verbosity: string };
}

export function parseTextConfig(value: unknown): ParsedTextConfig {
  if (value === undefined || value === null) return { echo: { format: { type: 'text' }, verbosity: 'medium' } };
  const text = requireObject(value, 'text');
  const verbosity =
    text.verbosity === undefined || text.verbosity === null ? 'medium' : oneOf(text.verbosity, 'text.verbosity', ['low', 'medium', 'high'] as const);
  if (text.format === undefined || text.format === null) return { echo: { format: { type: 'text' }, verbosity } };
  const format = requireObject(text.format, 'text.format');
  const type = oneOf(format.type, 'text.format.type', ['text', 'json_object', 'json_schema'] as const);
  if (type !== 'json_schema') return { format: { type }, echo: { format: { type }, verbosity } };
  const name = requireString(format.name, 'text.format.name');
  if (!FORMAT_NAME.test(name)) throw invalidRequest(`text.format.name: must match ^[a-zA-Z0-9_-]{1,64}$, got ${describeValue(name)}`, 'text.format.name');
  if (format.schema === undefined || format.schema === null) throw invalidRequest('text.format.schema: is required', 'text.format.schema');
  const schema = requireObject(format.schema, 'text.format.schema');
  const strict = optionalBoolean(format.strict, 'text.format.strict');
  const description = optionalString(format.description, 'text.format.description');
  const canonical: ResponseFormat = { type: 'json_schema', name, schema };
  if (strict !== undefined) canonical.strict = strict;
  const echo: Json = { type, name, schema, strict: strict ?? null };
  if (description !== undefined) echo.description = description;
  return { format: canonical, echo: { format: echo, verbosity } };
}
