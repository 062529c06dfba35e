/**
 * Where and how to call the Gemini API for one attempt. The key goes in `x-goog-api-key`,
 * never in the URL, where it would end up in access logs.
 */
import { modelPath } from '../shared/path-segment.js';
import type { Attempt } from '../types.js';

const DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
const DEFAULT_API_VERSION = 'v1beta';

type GeminiMethod = 'generateContent' | 'streamGenerateContent' | 'batchEmbedContents';

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
