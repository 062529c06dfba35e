/**
 * Model inputs beyond the canonical ones (e.g. `aspect_ratio`, `guidance`, `output_format`):
 * relayed to the model in the task's `options` under their own names. They are kept in the
 * task row, so they are bounded: at most 32, snake_case names, scalar values, strings of at
 * most 4,096 characters. Anything else is refused rather than dropped, so a client learns
 * its input did not reach the model.
 */
import { truncateText } from '../../core/describe-value.js';
import { invalidRequest } from '../../core/errors.js';
import type { Json } from '../../core/validate.js';

const MAX_EXTRA_INPUTS = 32;
const MAX_INPUT_STRING_CHARS = 4_096;
/** What Cog models name their inputs; also keeps `__proto__` and the like out. */
const INPUT_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** `skip`: names read elsewhere; `prefix`: where the inputs sit in the body (`input.` or nothing). */
export function parseExtraInputs(inputs: Json, skip: ReadonlySet<string>, prefix: string): Record<string, unknown> | undefined {
  const options: Record<string, unknown> = {};
  let count = 0;
  for (const [name, value] of Object.entries(inputs)) {
    if (skip.has(name) || value === undefined || value === null) continue;
    const param = `${prefix}${truncateText(name, 64)}`;
    if (!INPUT_NAME.test(name)) throw invalidRequest(`${param}: is not a model input name (lower-case snake_case, at most 64 characters)`, param);
    count += 1;
    if (count > MAX_EXTRA_INPUTS)
      throw invalidRequest(`${prefix || 'body'}: at most ${MAX_EXTRA_INPUTS} model inputs besides the prompt, size, count and seed are accepted`, param);
    options[name] = scalarInput(value, param);
  }
  return count > 0 ? options : undefined;
}

function scalarInput(value: unknown, param: string): string | number | boolean {
  if (typeof value === 'string') {
    if (value.length > MAX_INPUT_STRING_CHARS)
      throw invalidRequest(`${param}: must be at most ${MAX_INPUT_STRING_CHARS} characters, got ${value.length}`, param);
    return value;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  throw invalidRequest(`${param}: only string, number and boolean model inputs are accepted, got ${Array.isArray(value) ? 'an array' : 'an object'}`, param);
}
