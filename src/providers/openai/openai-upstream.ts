/** Where and how an OpenAI-dialect channel is called. */
import { readErrorText, sendUpstream, type UpstreamResponse } from '../shared/upstream-http.js';
import type { Attempt, ChannelConfig } from '../types.js';
import { mapOpenAIError } from './map-openai-error.js';
import type { OpenAIFlavour } from './openai-flavour.js';
import { refuseUnsupportedDocuments } from './refuse-unsupported-documents.js';

function chatCompletionsUrl(channel: ChannelConfig): string {
  const { baseUrl } = channel;
  let url = COMPLETIONS_URLS.get(baseUrl);
  if (url === undefined) {
    url = `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
    if (COMPLETIONS_URLS.size >= 256) COMPLETIONS_URLS.clear();
    COMPLETIONS_URLS.set(baseUrl, url);
  }
  return url;
}

/** Base URL → its chat completions URL, so the URL is not rebuilt per request (bounded). */
const COMPLETIONS_URLS = new Map<string, string>();

/** POSTs a Responses API body to `<base>/responses`; resolves with a 2xx answer, throws the mapped upstream error otherwise. */
export async function postResponses(body: object, attempt: Attempt): Promise<UpstreamResponse> {
  const { channel } = attempt;
  const response = await sendUpstream({
    url: `${channel.baseUrl.replace(/\/+$/, '')}/responses`,
    headers: openAIHeaders(channel),
    body: JSON.stringify(body),
    signal: attempt.signal,
    timeoutMs: channel.timeoutMs,
  });
  if (response.status < 200 || response.status >= 300) {
    throw mapOpenAIError(response.status, await readErrorText(response.body), response.headers);
  }
  return response;
}

/** Keyless local servers (Ollama, llama.cpp) get no Authorization header at all. */
export function openAIHeaders(channel: ChannelConfig): Record<string, string> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (channel.apiKey) headers.authorization = `Bearer ${channel.apiKey}`;
  for (const [name, value] of Object.entries(channel.headers)) headers[name.toLowerCase()] = value;
  return headers;
}

/** Channel option `streamUsage: false` turns off `stream_options.include_usage` for servers that reject it. */
export function wantsStreamUsage(channel: ChannelConfig): boolean {
  return channel.options.streamUsage !== false;
}

/** POSTs a chat completions body; resolves with a 2xx answer, throws the mapped upstream error otherwise. */
export async function postChatCompletions(body: object, attempt: Attempt, flavour: OpenAIFlavour): Promise<UpstreamResponse> {
  const { channel } = attempt;
  refuseUnsupportedDocuments(body, channel, flavour);
  const response = await sendUpstream({
    url: chatCompletionsUrl(channel),
    headers: openAIHeaders(channel),
    body: JSON.stringify(body),
    signal: attempt.signal,
    timeoutMs: channel.timeoutMs,
  });
  if (response.status < 200 || response.status >= 300) {
    throw mapOpenAIError(response.status, await readErrorText(response.body), response.headers);
  }
  return response;
}
