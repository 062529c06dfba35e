/**
 * Same-dialect relay: the client's body goes upstream with only the model rewritten, and the
 * answer's bytes come back untouched except for one case: when the gateway itself asked for
 * the usage chunk (to meter a stream the client did not ask usage for), that extra chunk is
 * dropped from what the client receives.
 */
import type { SseEvent } from '../../core/sse.js';
import type { Usage } from '../../core/usage.js';
import type { OpenAIUsage } from '../../core/wire/openai-chat-types.js';
import { fromOpenAIUsage } from '../../core/wire/openai-usage.js';
import { headerValue, relayContentLength } from '../shared/upstream-http.js';
import { tapJson, tapSse } from '../shared/usage-tap.js';
import type { PassthroughResponse, RawChatRequest } from '../../core/passthrough.js';
import type { Attempt } from '../types.js';
import { postChatCompletions, wantsStreamUsage } from './openai-upstream.js';

const USAGE_OBJECT = /"usage"\s*:\s*\{/;

export async function openAIPassthrough(raw: RawChatRequest, attempt: Attempt): Promise<PassthroughResponse> {
  const { channel } = attempt;
  const body: Record<string, unknown> = { ...raw.body, model: attempt.upstreamModel };
  let injectedUsage = false;
  if (raw.stream && wantsStreamUsage(channel) && !clientAskedUsage(raw.body)) {
    const streamOptions = isObject(raw.body.stream_options) ? raw.body.stream_options : {};
    body.stream_options = { ...streamOptions, include_usage: true };
    injectedUsage = true;
  }
  const response = await postChatCompletions(body, attempt);
  const headers: Record<string, string> = {};
  const contentType = headerValue(response.headers, 'content-type');
  if (contentType) headers['content-type'] = contentType;
  const upstreamRequestId = headerValue(response.headers, 'x-request-id');
  if (upstreamRequestId) headers['x-request-id'] = upstreamRequestId;

  const isSse = raw.stream && (contentType === undefined || contentType.includes('text/event-stream'));
  if (!isSse) relayContentLength(response.headers, headers);
  const tapped = isSse ? tapStream(response.body, injectedUsage) : tapJson(response.body, usageOfDocument, 'usage');
  return { status: response.status, headers, body: tapped.body, usage: tapped.usage };
}

function tapStream(source: Parameters<typeof tapSse>[0], dropUsageChunk: boolean) {
  // Events recognised as the usage-only chunk while reading usage, so the filter need not parse again.
  const usageOnly = new WeakSet<SseEvent>();
  const onEvent = (event: SseEvent): Partial<Usage> | undefined => {
    if (!USAGE_OBJECT.test(event.data)) return undefined;
    let chunk: { usage?: OpenAIUsage | null; choices?: unknown[] };
    try {
      chunk = JSON.parse(event.data) as typeof chunk;
    } catch {
      return undefined;
    }
    if (!chunk.usage) return undefined;
    if (Array.isArray(chunk.choices) && chunk.choices.length === 0) usageOnly.add(event);
    return fromOpenAIUsage(chunk.usage);
  };
  return tapSse(source, onEvent, dropUsageChunk ? (event) => !usageOnly.has(event) : undefined);
}

function usageOfDocument(document: unknown): Partial<Usage> | undefined {
  if (!isObject(document) || !isObject(document.usage)) return undefined;
  return fromOpenAIUsage(document.usage as Partial<OpenAIUsage>);
}

function clientAskedUsage(body: Record<string, unknown>): boolean {
  return isObject(body.stream_options) && body.stream_options.include_usage === true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
