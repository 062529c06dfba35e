/**
 * The sandbox's embed operation: hashing-vectoriser embeddings (see hash-vectorise.ts) of
 * `dimensions` values (the request's, else channel option `embedDimensions`, else the model's
 * real dimension, else 768), usage counted with the real tokenizer, failure drills and the
 * first-token delay as for chat.
 */
import type { EmbedRequest, EmbedResponse } from '../../core/embed.js';
import { GatewayError } from '../../core/errors.js';
import type { Attempt, ChannelConfig, EmbedProvider } from '../../providers/types.js';
import type { SandboxRuntimeSettings } from '../sandbox-settings.js';
import { hashSeed } from '../shared/hash-seed.js';
import { throwIfInjectedFailure } from '../shared/injected-failure.js';
import { sleep } from '../shared/sleep.js';
import { countTextsTokens, loadTokenizer } from '../shared/tokenizer.js';
import { hashVectorise } from './hash-vectorise.js';

/** For models the sandbox does not know the dimension of. */
const SANDBOX_EMBED_DIMENSIONS = 768;
const SANDBOX_MAX_EMBED_DIMENSIONS = 8192;

/** The real models' output dimensions, which are also the most a client may ask for. */
const MODEL_EMBED_DIMENSIONS: ReadonlyMap<string, number> = new Map([
  ['text-embedding-3-small', 1536],
  ['text-embedding-3-large', 3072],
  ['text-embedding-004', 768],
  ['gemini-embedding-001', 3072],
]);
const SANDBOX_EMBED_BATCH = 2048;

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function modelDimensions(request: EmbedRequest, attempt: Attempt): number | undefined {
  return MODEL_EMBED_DIMENSIONS.get(attempt.upstreamModel) ?? MODEL_EMBED_DIMENSIONS.get(request.model);
}

function dimensionsFor(request: EmbedRequest, attempt: Attempt): number {
  const channel: ChannelConfig = attempt.channel;
  const native = modelDimensions(request, attempt);
  const dimensions = request.dimensions ?? positiveInteger(channel.options.embedDimensions) ?? native ?? SANDBOX_EMBED_DIMENSIONS;
  if (request.dimensions !== undefined && native !== undefined && request.dimensions > native) {
    throw new GatewayError('invalid_request', `dimensions: ${request.model} makes vectors of at most ${native} values, got ${request.dimensions}`, {
      param: 'dimensions',
    });
  }
  if (dimensions > SANDBOX_MAX_EMBED_DIMENSIONS) {
    throw new GatewayError('invalid_request', `dimensions: the sandbox makes vectors of at most ${SANDBOX_MAX_EMBED_DIMENSIONS} values, got ${dimensions}`, {
      param: 'dimensions',
    });
  }
  return dimensions;
}

export function createSandboxEmbed(settingsFor: (attempt: Attempt) => SandboxRuntimeSettings): EmbedProvider {
  return {
    maxBatchSize: (channel) => positiveInteger(channel.options.embedBatchSize) ?? SANDBOX_EMBED_BATCH,
    async embed(request: EmbedRequest, attempt: Attempt): Promise<EmbedResponse> {
      await loadTokenizer();
      const settings = settingsFor(attempt);
      const seed = hashSeed(JSON.stringify([request.model, request.inputs]));
      throwIfInjectedFailure(settings, seed.seed, attempt.channel.name, [request.model, attempt.upstreamModel]);
      const dimensions = dimensionsFor(request, attempt);
      await sleep(settings.firstTokenDelayMs, attempt.signal);
      const embeddings = request.inputs.map((text) => hashVectorise(text, dimensions));
      return { model: request.model, embeddings, usage: { inputTokens: countTextsTokens(request.inputs) } };
    },
  };
}
