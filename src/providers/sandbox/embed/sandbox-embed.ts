/**
 * The sandbox's embed operation: hashing-vectoriser embeddings (see hash-vectorise.ts) of
 * `dimensions` values (the request's, else channel option `embedDimensions`, else 768), usage
 * counted with the real tokenizer, failure drills and the first-token delay as for chat.
 */
import type { EmbedRequest, EmbedResponse } from '../../../core/embed.js';
import { GatewayError } from '../../../core/errors.js';
import type { Attempt, ChannelConfig, EmbedProvider } from '../../types.js';
import type { SandboxRuntimeSettings } from '../sandbox-settings.js';
import { hashSeed } from '../shared/hash-seed.js';
import { throwIfInjectedFailure } from '../shared/injected-failure.js';
import { sleep } from '../shared/sleep.js';
import { countTextTokens } from '../shared/tokenizer.js';
import { hashVectorise } from './hash-vectorise.js';
import { loadTokenizer } from '../shared/tokenizer.js';

export const SANDBOX_EMBED_DIMENSIONS = 768;
export const SANDBOX_MAX_EMBED_DIMENSIONS = 8192;
const SANDBOX_EMBED_BATCH = 2048;

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

function dimensionsFor(request: EmbedRequest, channel: ChannelConfig): number {
  const dimensions = request.dimensions ?? positiveInteger(channel.options.embedDimensions) ?? SANDBOX_EMBED_DIMENSIONS;
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
      const dimensions = dimensionsFor(request, attempt.channel);
      await sleep(settings.firstTokenDelayMs, attempt.signal);
      let inputTokens = 0;
      const embeddings = request.inputs.map((text) => {
        inputTokens += countTextTokens(text);
        return hashVectorise(text, dimensions);
      });
      return { model: request.model, embeddings, usage: { inputTokens } };
    },
  };
}
