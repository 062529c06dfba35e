/**
 * The Gemini and Anthropic adapters pointed at Vertex AI: Gemini models under the `google`
 * publisher (`:generateContent`, `:streamGenerateContent?alt=sse`, the body as the Gemini API
 * takes it less `model`), Claude under `anthropic` (`:rawPredict`, `:streamRawPredict`, the
 * Messages body without `model` and with `anthropic_version: vertex-2023-10-16`, as Anthropic's
 * Vertex documentation gives it). Both with a service account's bearer token.
 */
import type { AnthropicEndpoint } from '../anthropic/anthropic-request.js';
import type { GeminiEndpoint } from '../gemini/gemini-request.js';
import { vertexHeaders, vertexModelUrl } from './vertex-target.js';

export const VERTEX_ANTHROPIC_VERSION = 'vertex-2023-10-16';

export const VERTEX_GEMINI_ENDPOINT: GeminiEndpoint = {
  url: (attempt, method) => {
    const url = vertexModelUrl(attempt, 'google', method);
    return method === 'streamGenerateContent' ? `${url}?alt=sse` : url;
  },
  headers: (attempt) => vertexHeaders(attempt),
  bodyMayNameModel: false,
};

export const VERTEX_ANTHROPIC_ENDPOINT: AnthropicEndpoint = {
  url: (attempt, stream) => vertexModelUrl(attempt, 'anthropic', stream ? 'streamRawPredict' : 'rawPredict'),
  headers: (attempt, clientHeaders = {}) => {
    const beta = clientHeaders['anthropic-beta'];
    return vertexHeaders(attempt, beta ? { 'anthropic-beta': beta } : {});
  },
  body: ({ model: _model, ...body }) => ({ ...body, anthropic_version: VERTEX_ANTHROPIC_VERSION }),
};
