/** OpenAI `response_format` → canonical ResponseFormat. */
import type { ResponseFormat } from '../../core/chat.js';
import { oneOf, optionalBoolean, requireObject, requireString } from '../../core/validate.js';

export function parseOpenAIResponseFormat(value: unknown): ResponseFormat | undefined {
  if (value === undefined || value === null) return undefined;
  const format = requireObject(value, 'response_format');
  const type = oneOf(format.type, 'response_format.type', ['text', 'json_object', 'json_schema'] as const);
  if (type !== 'json_schema') return { type };
  const spec = requireObject(format.json_schema, 'response_format.json_schema');
  const name = requireString(spec.name, 'response_format.json_schema.name');
  const schema = spec.schema === undefined || spec.schema === null ? {} : requireObject(spec.schema, 'response_format.json_schema.schema');
  const result: ResponseFormat = { type: 'json_schema', name, schema };
  const strict = optionalBoolean(spec.strict, 'response_format.json_schema.strict');
  if (strict !== undefined) result.strict = strict;
  return result;
}
