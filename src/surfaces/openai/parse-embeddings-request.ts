/**
 * An OpenAI `POST /v1/embeddings` body → the canonical request's fields and the inputs as
 * given: strings, or token arrays (decoded to text afterwards, see decode-token-inputs.ts).
 * `encoding_format` defaults to `float`, as in the raw HTTP API (the SDK asks `base64` itself).
 */
import type { EmbedRequest } from '../../core/embed.js';
import { invalidRequest } from '../../core/errors.js';
import { describe, oneOf, optionalInteger, optionalString, requireObject, requireString } from '../../core/validate.js';
import { OPENAI_MAX_EMBEDDING_INPUTS, type OpenAIEmbeddingEncoding } from '../../core/wire/openai-embeddings-types.js';
import { describeValue } from '../../core/describe-value.js';

/** One input: a text, or the token ids of one. */
export type EmbeddingInput = string | number[];

interface ParsedEmbeddingsRequest {
  fields: Omit<EmbedRequest, 'inputs'>;
  inputs: EmbeddingInput[];
  encodingFormat: OpenAIEmbeddingEncoding;
}

const ENCODINGS: readonly OpenAIEmbeddingEncoding[] = ['float', 'base64'];

export function parseOpenAIEmbeddingsRequest(body: unknown): ParsedEmbeddingsRequest {
  const json = requireObject(body, 'body');
  const model = requireString(json.model, 'model');
  if (model.length === 0) throw invalidRequest('model: must not be empty', 'model');
  const inputs = parseInputs(json.input);
  const encodingFormat =
    json.encoding_format === undefined || json.encoding_format === null ? 'float' : oneOf(json.encoding_format, 'encoding_format', ENCODINGS);
  const fields: ParsedEmbeddingsRequest['fields'] = { model };
  const dimensions = optionalInteger(json.dimensions, 'dimensions', 1);
  if (dimensions !== undefined) fields.dimensions = dimensions;
  const user = optionalString(json.user, 'user');
  if (user !== undefined) fields.user = user;
  return { fields, inputs, encodingFormat };
}

function parseInputs(value: unknown): EmbeddingInput[] {
  if (value === undefined || value === null) throw invalidRequest('input: is required', 'input');
  if (typeof value === 'string') return [nonEmptyText(value, 'input')];
  if (!Array.isArray(value)) throw invalidRequest(`input: expected a string or an array, got ${describe(value)}`, 'input');
  if (value.length === 0) throw invalidRequest('input: must not be an empty array', 'input');
  // A flat array of numbers is one input given as tokens.
  if (typeof value[0] === 'number') return [tokenArray(value, 'input')];
  if (value.length > OPENAI_MAX_EMBEDDING_INPUTS) {
    throw invalidRequest(`input: at most ${OPENAI_MAX_EMBEDDING_INPUTS} inputs are allowed, got ${value.length}`, 'input');
  }
  return value.map((item: unknown, i) => {
    const param = `input[${i}]`;
    if (typeof item === 'string') return nonEmptyText(item, param);
    if (Array.isArray(item)) return tokenArray(item, param);
    throw invalidRequest(`${param}: expected a string or an array of token ids, got ${describe(item)}`, param);
  });
}

function nonEmptyText(text: string, param: string): string {
  if (text.length === 0) throw invalidRequest(`${param}: must not be an empty string`, param);
  return text;
}

function tokenArray(items: unknown[], param: string): number[] {
  if (items.length === 0) throw invalidRequest(`${param}: must not be an empty array`, param);
  items.forEach((token, i) => {
    if (typeof token !== 'number' || !Number.isInteger(token) || token < 0) {
      throw invalidRequest(`${param}[${i}]: expected a token id (a non-negative integer), got ${describeValue(token)}`, `${param}[${i}]`);
    }
  });
  return items as number[];
}
