/**
 * Where and how to call the Gemini API for one attempt. The key goes in `x-goog-api-key`,
 * never in the URL, where it would end up in access logs.
 */
import { modelPath } from '../shared/path-segment.js';
import { readErrorText, sendUpstream, type UpstreamResponse } from '../shared/upstream-http.js';
import type { Attempt } from '../types.js';
import { mapGeminiError } from './map-gemini-error.js';

const DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
const DEFAULT_API_VERSION = 'v1beta';

export type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'batchEmbedContents';

export function geminiModelUrl(attempt: Attempt, method: GeminiMethod): string {
  const base = (attempt.channel.baseUrl || DEFAULT_BASE_URL).replace(/\/+$/, '');
  const configured = attempt.channel.options.apiVersion;
  const version = typeof configured === 'string' && configured.length > 0 ? configured : DEFAULT_API_VERSION;
  // A base URL that already names the version (`…/v1beta`) is used as is.
  const root = /\/v1(alpha|beta)?\d*$/.test(base) ? base : `${base}/${version}`;
  const model = attempt.upstreamModel.startsWith('models/') ? attempt.upstreamModel.slice(7) : attempt.upstreamModel;
  const suffix = method === 'streamGenerateContent' ? '?alt=sse' : '';
  return `${root}/models/${modelPath(model, { reserved: ':' })}:${method}${suffix}`;
}

export function geminiHeaders(attempt: Attempt): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...attempt.channel.headers };
  if (attempt.channel.apiKey) headers['x-goog-api-key'] = attempt.channel.apiKey;
  return headers;
}

/** Where a Gemini-dialect model is called and how: the Gemini API, or Vertex AI (`vertex-ai/`). */
export interface GeminiEndpoint {
  url(attempt: Attempt, method: GeminiMethod): string;
  headers(attempt: Attempt): Record<string, string> | Promise<Record<string, string>>;
  /** Whether a body may carry `model` (the Gemini API ignores it; Vertex AI refuses unknown members). */
  readonly bodyMayNameModel: boolean;
}

export const GEMINI_API_ENDPOINT: GeminiEndpoint = { url: geminiModelUrl, headers: geminiHeaders, bodyMayNameModel: true };

/** POSTs `body` to the model's `method`; resolves with a 2xx answer, throws the mapped upstream error otherwise. */
export async function postGemini(endpoint: GeminiEndpoint, attempt: Attempt, method: GeminiMethod, body: object): Promise<UpstreamResponse> {
  const made = endpoint.headers(attempt);
  const headers = made instanceof Promise ? await made : made;
  const response = await sendUpstream({
    url: endpoint.url(attempt, method),
    headers,
    body: JSON.stringify(body),
    signal: attempt.signal,
    timeoutMs: attempt.channel.timeoutMs,
  });
  if (response.status < 200 || response.status >= 300) {
    throw mapGeminiError(response.status, await readErrorText(response.body), response.headers);
  }
  return response;
}
