/**
 * Embeddings on Vertex AI: `:predict` on the model (`text-embedding-005`, `gemini-embedding-001`,
 * …) with one instance per input (`content`, `task_type`, `title`) and `outputDimensionality`,
 * answered with `predictions[].embeddings.values` and each input's `statistics.token_count`.
 * At most 250 inputs per call (Google's limit for the text-embedding models); gemini-embedding-001
 * takes one, which the channel option `embedBatchSize: 1` says.
 */
import type { EmbedRequest, EmbedResponse } from '../../core/embed.js';
import { GatewayError } from '../../core/errors.js';
import { mapGeminiError } from '../gemini/map-gemini-error.js';
import { readErrorText, readJson, sendUpstream } from '../shared/upstream-http.js';
import type { Attempt, ChannelConfig, EmbedProvider } from '../types.js';
import { vertexHeaders, vertexModelUrl } from './vertex-target.js';

const MAX_INSTANCES = 250;

interface VertexPrediction {
  embeddings?: { values?: unknown; statistics?: { token_count?: unknown } };
}

function batchSize(channel: ChannelConfig): number {
  const configured = channel.options.embedBatchSize;
  return typeof configured === 'number' && Number.isInteger(configured) && configured > 0 ? Math.min(configured, MAX_INSTANCES) : MAX_INSTANCES;
}

function predictBody(request: EmbedRequest): object {
  const instances = request.inputs.map((content) => ({
    content,
    ...(request.taskType ? { task_type: request.taskType } : {}),
    ...(request.title && request.taskType === 'RETRIEVAL_DOCUMENT' ? { title: request.title } : {}),
  }));
  return { instances, ...(request.dimensions ? { parameters: { outputDimensionality: request.dimensions } } : {}) };
}

function fromPredictions(answer: { predictions?: unknown }, request: EmbedRequest): EmbedResponse {
  const predictions = Array.isArray(answer.predictions) ? (answer.predictions as VertexPrediction[]) : [];
  if (predictions.length !== request.inputs.length) {
    throw new GatewayError('upstream', `Vertex AI answered ${predictions.length} embeddings for ${request.inputs.length} inputs`, { retryable: true });
  }
  let inputTokens = 0;
  const embeddings = predictions.map((prediction) => {
    const values = prediction.embeddings?.values;
    if (!Array.isArray(values) || values.some((value) => typeof value !== 'number')) {
      throw new GatewayError('upstream', 'Vertex AI answered an embedding without numeric values', { retryable: true });
    }
    const tokens = Number(prediction.embeddings?.statistics?.token_count);
    if (Number.isFinite(tokens) && tokens > 0) inputTokens += tokens;
    return values as number[];
  });
  return { model: request.model, embeddings, usage: { inputTokens } };
}

export function createVertexEmbed(): EmbedProvider {
  return {
    maxBatchSize: batchSize,
    async embed(request: EmbedRequest, attempt: Attempt): Promise<EmbedResponse> {
      const response = await sendUpstream({
        url: vertexModelUrl(attempt, 'google', 'predict'),
        headers: await vertexHeaders(attempt),
        body: JSON.stringify(predictBody(request)),
        signal: attempt.signal,
        timeoutMs: attempt.channel.timeoutMs,
      });
      if (response.status < 200 || response.status >= 300) {
        throw mapGeminiError(response.status, await readErrorText(response.body), response.headers);
      }
      return fromPredictions(await readJson<{ predictions?: unknown }>(response.body), request);
    },
  };
}
