/**
 * `POST /v1/embeddings` of the fake OpenAI upstream, after OpenAI's published API: `input` a
 * string, strings, a token array or token arrays (at most 2048, none empty), `encoding_format`
 * `float` (default) or `base64` (little-endian float32), `dimensions` only for the v3 models
 * (shortened vectors), `user`. Vectors come from `fakeEmbeddingValues(model + "|" + text)`
 * (token inputs: their ids joined by commas); `prompt_tokens` counts words (tokens for token
 * inputs). Errors in OpenAI's shape, with OpenAI's messages.
 */
import { fakeEmbeddingValues } from './fake-embedding-values.js';

type Json = Record<string, unknown>;

export interface FakeAnswer {
  status: number;
  body: unknown;
}

/** Native vector length, and whether `dimensions` may shorten it. */
export const FAKE_OPENAI_EMBEDDING_MODELS: Record<string, { dimensions: number; shortenable: boolean }> = {
  'text-embedding-3-small': { dimensions: 1536, shortenable: true },
  'text-embedding-3-large': { dimensions: 3072, shortenable: true },
  'text-embedding-ada-002': { dimensions: 1536, shortenable: false },
};

export const FAKE_OPENAI_MAX_INPUTS = 2048;

const INVALID_INPUT = "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";

function error(status: number, message: string, param: string | null = null, code: string | null = null): FakeAnswer {
  return { status, body: { error: { message, type: 'invalid_request_error', param, code } } };
}

/** The text a fake vector is seeded from, for one input as sent. */
export function fakeOpenAIEmbeddingSeed(model: string, input: string | number[]): string {
  return `${model}|${typeof input === 'string' ? input : input.join(',')}`;
}

export function answerOpenAIEmbeddings(body: Json | undefined): FakeAnswer {
  if (!body) return error(400, "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)");
  if (typeof body.model !== 'string') return error(400, 'you must provide a model parameter');
  const model = FAKE_OPENAI_EMBEDDING_MODELS[body.model];
  if (!model) return error(404, `The model \`${body.model}\` does not exist or you do not have access to it.`, null, 'model_not_found');

  const inputs = readInputs(body.input);
  if (!inputs) return error(400, INVALID_INPUT);

  const format = body.encoding_format ?? 'float';
  if (format !== 'float' && format !== 'base64') {
    return error(
      400,
      `Invalid value for 'encoding_format': ${JSON.stringify(format)}. Supported values are: 'float' and 'base64'.`,
      'encoding_format',
      'invalid_value',
    );
  }

  let dimensions = model.dimensions;
  if (body.dimensions !== undefined) {
    if (!model.shortenable) return error(400, 'This model does not support specifying dimensions.');
    const wanted = body.dimensions;
    if (typeof wanted !== 'number' || !Number.isInteger(wanted) || wanted < 1 || wanted > model.dimensions) {
      return error(
        400,
        `Invalid value for 'dimensions' = ${JSON.stringify(wanted)}. Must be between 1 and ${model.dimensions}.`,
        'dimensions',
        'invalid_value',
      );
    }
    dimensions = wanted;
  }

  let promptTokens = 0;
  const data = inputs.map((input, index) => {
    promptTokens += typeof input === 'string' ? input.split(/\s+/).filter((w) => w.length > 0).length : input.length;
    const values = fakeEmbeddingValues(fakeOpenAIEmbeddingSeed(body.model as string, input), dimensions);
    return { object: 'embedding', index, embedding: format === 'base64' ? toBase64(values) : values };
  });
  return { status: 200, body: { object: 'list', data, model: body.model, usage: { prompt_tokens: promptTokens, total_tokens: promptTokens } } };
}

/** The inputs as sent, or undefined when OpenAI would refuse them. */
function readInputs(input: unknown): Array<string | number[]> | undefined {
  if (typeof input === 'string') return input.length > 0 ? [input] : undefined;
  if (!Array.isArray(input) || input.length === 0) return undefined;
  if (input.every((item) => typeof item === 'number')) return [input as number[]];
  if (input.length > FAKE_OPENAI_MAX_INPUTS) return undefined;
  const valid = input.every(
    (item) => (typeof item === 'string' && item.length > 0) || (Array.isArray(item) && item.length > 0 && item.every((t) => typeof t === 'number')),
  );
  return valid ? (input as Array<string | number[]>) : undefined;
}

function toBase64(values: number[]): string {
  const bytes = Buffer.alloc(values.length * 4);
  values.forEach((value, i) => bytes.writeFloatLE(value, i * 4));
  return bytes.toString('base64');
}
