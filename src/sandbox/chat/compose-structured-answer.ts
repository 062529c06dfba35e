/**
 * The answer text when the client asked for JSON: a value generated from the response schema
 * (`json_schema`), or a small JSON object (`json_object`). No marker goes inside — it would
 * break the JSON; the `x-gengate-simulated` header still says the answer is simulated.
 */
import type { ResponseFormat } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';
import type { Prng } from '../shared/prng.js';
import { generateFromSchema } from './generate-from-schema.js';
import { GenerationLimitError, type GenerationBudget } from './generation-limits.js';

/** What a `json_object` answer looks like: one short text member, nothing about the prompt. */
const JSON_OBJECT_SCHEMA = {
  type: 'object',
  properties: { answer: { type: 'string', minLength: 12, maxLength: 60 } },
  required: ['answer'],
  additionalProperties: false,
};

/** The JSON text of the answer, or undefined when the client asked for plain text. */
export function composeStructuredAnswer(format: ResponseFormat | undefined, rng: Prng, budget: GenerationBudget): string | undefined {
  if (format === undefined || format.type === 'text') return undefined;
  if (format.type === 'json_object') return JSON.stringify(generateFromSchema(JSON_OBJECT_SCHEMA, rng, budget));
  let value: unknown;
  try {
    value = generateFromSchema(format.schema, rng, budget);
  } catch (error) {
    if (!(error instanceof GenerationLimitError)) throw error;
    const where = error.path === '$' ? '' : ` at ${error.path.replace(/^\$\.?/, '')}`;
    const name = format.name === undefined ? 'the response schema' : `the response schema "${format.name}"`;
    throw invalidRequest(`structured output: the sandbox cannot generate an answer for ${name}${where}: ${error.message}`);
  }
  // Generation yields no undefined, but a schema of `false` alone yields null: still JSON.
  return JSON.stringify(value ?? null);
}
