/**
 * Responses `include`: the extra output a client asks for, from the values OpenAI documents
 * (`reasoning.encrypted_content`, `message.output_text.logprobs`, …). Unknown values are refused
 * by name; repeats are kept once.
 */
import { invalidRequest } from '../../core/errors.js';
import { oneOf, requireArray } from '../../core/validate.js';

const RESPONSE_INCLUDABLES = [
  'file_search_call.results',
  'web_search_call.results',
  'web_search_call.action.sources',
  'message.input_image.image_url',
  'computer_call_output.output.image_url',
  'code_interpreter_call.outputs',
  'reasoning.encrypted_content',
  'message.output_text.logprobs',
] as const;

/** Far more entries than there are values: it bounds the loop. */
const MAX_INCLUDE_ENTRIES = 64;

export function parseResponsesInclude(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = requireArray(value, 'include');
  if (list.length > MAX_INCLUDE_ENTRIES) {
    throw invalidRequest(`include: ${list.length} entries is more than the ${MAX_INCLUDE_ENTRIES} allowed`, 'include');
  }
  const values = new Set<string>();
  list.forEach((entry, i) => values.add(oneOf(entry, `include[${i}]`, RESPONSE_INCLUDABLES)));
  return [...values];
}
