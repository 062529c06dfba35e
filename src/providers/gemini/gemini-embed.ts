/**
 * The embed operation over the Gemini API: always `:batchEmbedContents` (one input is a batch
 * of one), at most 100 requests per call.
 */
import type { EmbedRequest, EmbedResponse } from '../../core/embed.js';
import { GEMINI_MAX_BATCH_EMBED_REQUESTS, type GeminiBatchEmbedContentsResponse } from '../../core/wire/gemini-embed-types.js';
import { readErrorText, readJson, sendUpstream } from '../shared/upstream-http.js';
import type { Attempt, ChannelConfig, EmbedProvider } from '../types.js';
import { fromGeminiBatchEmbedResponse } from './from-gemini-batch-embed-response.js';
import { geminiHeaders, geminiModelUrl } from './gemini-request.js';
import { mapGeminiError } from './map-gemini-error.js';
import { toGeminiBatchEmbedRequest } from './to-gemini-batch-embed-request.js';
import { loadTokenizer } from '../../core/tokenizer.js';

/** 100, or less when the channel option `embedBatchSize` says so. */
function geminiEmbedBatchSize(channel: ChannelConfig): number {
  const configured = channel.options.embedBatchSize;
  const valid = typeof configured === 'number' && Number.isInteger(configured) && configured > 0;
  return valid ? Math.min(configured, GEMINI_MAX_BATCH_EMBED_REQUESTS) : GEMINI_MAX_BATCH_EMBED_REQUESTS;
}

export function createGeminiEmbed(): EmbedProvider {
  return {
    maxBatchSize: geminiEmbedBatchSize,
    async embed(request: EmbedRequest, attempt: Attempt): Promise<EmbedResponse> {
      await loadTokenizer();
      const response = await sendUpstream({
        url: geminiModelUrl(attempt, 'batchEmbedContents'),
        headers: geminiHeaders(attempt),
        body: JSON.stringify(toGeminiBatchEmbedRequest(request, attempt.upstreamModel)),
        signal: attempt.signal,
        timeoutMs: attempt.channel.timeoutMs,
      });
      if (response.status < 200 || response.status >= 300) {
        throw mapGeminiError(response.status, await readErrorText(response.body), response.headers);
      }
      return fromGeminiBatchEmbedResponse(await readJson<GeminiBatchEmbedContentsResponse>(response.body), request);
    },
  };
}
