/**
 * Where an OpenAI-dialect request goes and how it is authenticated. OpenAI and the servers that
 * copy it take `<base><path>` with a bearer key (`BEARER_ENDPOINT`); a flavour whose upstream
 * lays its API out otherwise (Azure OpenAI's deployments and `api-key` header) brings its own.
 */
import type { ChannelConfig } from '../types.js';

/** The API paths the OpenAI adapter calls. */
export type OpenAIPath = '/chat/completions' | '/responses' | '/embeddings' | '/images/generations' | '/images/edits';

export interface OpenAIEndpoint {
  /** The URL of `path` for this channel; `upstreamModel` is the model (or deployment) the request names. */
  url(channel: ChannelConfig, path: OpenAIPath, upstreamModel: string): string;
  /** Authentication and the channel's extra headers; a promise only when a token must be fetched first. */
  headers(channel: ChannelConfig, signal: AbortSignal): Record<string, string> | Promise<Record<string, string>>;
}

/** Keyless local servers (Ollama, llama.cpp) get no Authorization header at all. */
export function openAIHeaders(channel: ChannelConfig): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (channel.apiKey) headers.authorization = `Bearer ${channel.apiKey}`;
  for (const [name, value] of Object.entries(channel.headers)) headers[name.toLowerCase()] = value;
  return headers;
}

/** `<base><path>` per base URL and path, so the URL is not rebuilt per request (bounded). */
const URLS = new Map<string, string>();

function joinedUrl(baseUrl: string, path: OpenAIPath): string {
  const key = baseUrl + path;
  let url = URLS.get(key);
  if (url === undefined) {
    url = `${baseUrl.replace(/\/+$/, '')}${path}`;
    if (URLS.size >= 1024) URLS.clear();
    URLS.set(key, url);
  }
  return url;
}

export const BEARER_ENDPOINT: OpenAIEndpoint = {
  url: (channel, path) => joinedUrl(channel.baseUrl, path),
  headers: openAIHeaders,
};
