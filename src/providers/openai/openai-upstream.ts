/** Where and how an OpenAI-dialect channel is called: one POST for every path, through the flavour's endpoint. */
import { readErrorText, sendUpstream, type UpstreamResponse } from '../shared/upstream-http.js';
import type { Attempt, ChannelConfig } from '../types.js';
import { mapOpenAIError } from './map-openai-error.js';
import { BEARER_ENDPOINT, type OpenAIPath } from './openai-endpoint.js';
import type { OpenAIFlavour } from './openai-flavour.js';
import { refuseUnsupportedDocuments } from './refuse-unsupported-documents.js';

/** POSTs to `path` of the channel's upstream; resolves with a 2xx answer, throws the mapped upstream error otherwise. */
export async function postOpenAI(
  path: OpenAIPath,
  body: string | Uint8Array,
  attempt: Attempt,
  flavour: Pick<OpenAIFlavour, 'endpoint'>,
  contentType?: string,
): Promise<UpstreamResponse> {
  const { channel } = attempt;
  const endpoint = flavour.endpoint ?? BEARER_ENDPOINT;
  const made = endpoint.headers(channel, attempt.signal);
  const headers = made instanceof Promise ? await made : made;
  const response = await sendUpstream({
    url: endpoint.url(channel, path, attempt.upstreamModel),
    headers: contentType === undefined ? headers : { ...headers, 'content-type': contentType },
    body,
    signal: attempt.signal,
    timeoutMs: channel.timeoutMs,
  });
  if (response.status < 200 || response.status >= 300) {
    throw mapOpenAIError(response.status, await readErrorText(response.body), response.headers);
  }
  return response;
}

/** POSTs a Responses API body to `<base>/responses`. */
export function postResponses(body: object, attempt: Attempt, flavour: Pick<OpenAIFlavour, 'endpoint'>): Promise<UpstreamResponse> {
  return postOpenAI('/responses', JSON.stringify(body), attempt, flavour);
}

/** Channel option `streamUsage: false` turns off `stream_options.include_usage` for servers that reject it. */
export function wantsStreamUsage(channel: ChannelConfig): boolean {
  return channel.options.streamUsage !== false;
}

/** POSTs a chat completions body, less the members the flavour's upstream refuses (each dropped with a warning). */
export function postChatCompletions(body: object, attempt: Attempt, flavour: OpenAIFlavour): Promise<UpstreamResponse> {
  refuseUnsupportedDocuments(body, attempt.channel, flavour);
  dropUnsupportedParams(body as Record<string, unknown>, attempt, flavour);
  return postOpenAI('/chat/completions', JSON.stringify(body), attempt, flavour);
}

function dropUnsupportedParams(body: Record<string, unknown>, attempt: Attempt, flavour: OpenAIFlavour): void {
  const unsupported = flavour.unsupportedParams;
  if (unsupported === undefined) return;
  for (const name of unsupported) {
    if (body[name] === undefined) continue;
    delete body[name];
    attempt.warn?.(`${name}: not supported by ${flavour.stopRules.upstream}; dropped`);
  }
}
