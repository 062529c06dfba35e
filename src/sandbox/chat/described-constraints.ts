/**
 * Constraints a client moved into a schema's description. Anthropic's structured outputs take
 * no numeric bounds, lengths or patterns, so its SDK (`zodOutputFormat`, `transformJSONSchema`)
 * removes them and appends them to the description as `{minimum: 1, maximum: 12}` for the
 * model to read — and then validates the answer against the original zod schema. The sandbox
 * reads them back like a model would. Only known keywords with values of the right type count.
 */
import { MAX_PATTERN_LENGTH } from './generation-limits.js';

/** Longer descriptions are not searched. */
const MAX_DESCRIPTION = 4_000;
const NUMERIC = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'];
const COUNTS = ['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties'];

export type Constraints = Record<string, unknown>;

export function readDescribedConstraints(description: string): Constraints | undefined {
  if (description.length > MAX_DESCRIPTION || !description.endsWith('}')) return undefined;
  const appended = description.lastIndexOf('\n\n{');
  const start = appended >= 0 ? appended + 2 : description.startsWith('{') ? 0 : -1;
  if (start < 0) return undefined;
  const text = description.slice(start).replace(/(^\{|, )([A-Za-z_$][\w$]*): /g, '$1"$2": ');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const found: Constraints = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (NUMERIC.includes(key) && typeof value === 'number' && Number.isFinite(value)) found[key] = value;
    else if (COUNTS.includes(key) && Number.isInteger(value) && (value as number) >= 0) found[key] = value;
    else if ((key === 'pattern' || key === 'format') && typeof value === 'string' && value.length <= MAX_PATTERN_LENGTH) found[key] = value;
    else if (key === 'uniqueItems' && typeof value === 'boolean') found[key] = value;
  }
  return Object.keys(found).length > 0 ? found : undefined;
}
