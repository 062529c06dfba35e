/**
 * `POST /imagegen1/create` → the canonical `image.generate` task request. Two shapes are
 * accepted: the spec's flat `{model, prompt, width, height, num_outputs, seed, …}` and
 * Replicate's own `{model | version, input: {prompt, …}, webhook, webhook_events_filter}`
 * (what the `replicate` npm client sends). Field errors answer 422, as Replicate's do. Extra
 * inputs go to the model's vendor, so one holding the client's gateway key is refused.
 */
import { GatewayError, invalidRequest } from '../../core/errors.js';
import type { TaskRequest } from '../../core/task.js';
import { optionalBoolean, optionalInteger, requireObject, requireString, type Json } from '../../core/validate.js';
import { parseExtraInputs } from './parse-extra-inputs.js';
import { parseModel } from './parse-model.js';
import { parseWebhook } from './parse-webhook.js';
import { unprocessable } from './unprocessable.js';

const MAX_PROMPT_CHARS = 10_000;
const MIN_SIDE = 64;
const MAX_SIDE = 2048;
const MAX_OUTPUTS = 4;
const MAX_SEED = 4_294_967_295;

/** Inputs the canonical request carries; never relayed as extras. */
const CANONICAL_INPUTS = ['prompt', 'width', 'height', 'num_outputs', 'seed'];
/** Top-level fields about the prediction rather than the model. */
const CONTROL_FIELDS = ['model', 'version', 'input', 'webhook', 'webhook_events_filter', 'stream'];

interface Imagegen1Create {
  request: TaskRequest;
  callback?: { url: string };
}

/** `presentedKey`: the gateway key the client authenticated with, never relayed to a model. */
export function parseCreateRequest(body: unknown, checkCallbackUrl: (url: string, param: string) => void, presentedKey?: string): Imagegen1Create {
  if (body === undefined) throw invalidRequest('the request body is empty; a JSON object is required');
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('the request body must be a JSON object');
  const parsed = unprocessable(() => parseFields(body as Json, checkCallbackUrl));
  refuseRelayedKey(parsed.request.options, presentedKey);
  return parsed;
}

function parseFields(body: Json, checkCallbackUrl: (url: string, param: string) => void): Imagegen1Create {
  const model = parseModel(body.model, body.version);
  const nested = body.input !== undefined && body.input !== null;
  const inputs = nested ? requireObject(body.input, 'input') : body;
  const prefix = nested ? 'input.' : '';
  if (nested) {
    const stray = CANONICAL_INPUTS.find((name) => body[name] !== undefined);
    if (stray) throw invalidRequest(`${stray}: give model inputs either at the top level or inside "input", not both`, stray);
  }
  // `stream` (server-sent output) is accepted for Replicate clients but not offered: results come by lookup or webhook.
  optionalBoolean(body.stream, 'stream');

  const request: TaskRequest = {
    model,
    prompt: parsePrompt(inputs.prompt, `${prefix}prompt`),
    count: optionalInteger(inputs.num_outputs, `${prefix}num_outputs`, 1, MAX_OUTPUTS) ?? 1,
  };
  const width = optionalInteger(inputs.width, `${prefix}width`, MIN_SIDE, MAX_SIDE);
  const height = optionalInteger(inputs.height, `${prefix}height`, MIN_SIDE, MAX_SIDE);
  const seed = optionalInteger(inputs.seed, `${prefix}seed`, 0, MAX_SEED);
  if (width !== undefined) request.width = width;
  if (height !== undefined) request.height = height;
  if (seed !== undefined) request.seed = seed;
  const skip = new Set(nested ? CANONICAL_INPUTS : [...CANONICAL_INPUTS, ...CONTROL_FIELDS]);
  const options = parseExtraInputs(inputs, skip, prefix);
  if (options) request.options = options;

  const callback = parseWebhook(body.webhook, body.webhook_events_filter, checkCallbackUrl);
  return callback ? { request, callback } : { request };
}

function parsePrompt(value: unknown, param: string): string {
  const prompt = requireString(value, param);
  if (prompt.trim() === '') throw invalidRequest(`${param}: must not be empty`, param);
  if (prompt.length > MAX_PROMPT_CHARS) throw invalidRequest(`${param}: must be at most ${MAX_PROMPT_CHARS} characters, got ${prompt.length}`, param);
  return prompt;
}

function refuseRelayedKey(options: Record<string, unknown> | undefined, presented: string | undefined): void {
  if (!options || !presented) return;
  for (const [name, value] of Object.entries(options)) {
    if (typeof value === 'string' && value.includes(presented)) {
      throw new GatewayError('invalid_request', `${name}: holds your gateway API key, which is never sent to a model`, { param: name, status: 422 });
    }
  }
}
