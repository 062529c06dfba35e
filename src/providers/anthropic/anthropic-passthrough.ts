/**
 * Same-dialect pass-through: the client's Messages body goes upstream with only the model
 * rewritten; the answer's bytes are relayed untouched while a tap reads usage from them.
 */
import type { SseEvent } from '../../core/sse.js';
import type { Usage } from '../../core/usage.js';
import { fromAnthropicInputUsage, fromAnthropicUsage, type AnthropicInputUsage } from '../../core/wire/anthropic-usage.js';
import type { AnthropicUsage } from '../../core/wire/anthropic-types.js';
import { headerValue, readErrorText, sendUpstream, relayContentLength } from '../shared/upstream-http.js';
import { tapJson, tapSse } from '../shared/usage-tap.js';
import type { PassthroughResponse, RawChatRequest } from '../../core/passthrough.js';
import type { Attempt } from '../types.js';
import { anthropicHeaders, anthropicMessagesUrl } from './anthropic-request.js';
import { mapAnthropicError } from './map-anthropic-error.js';

const RELAYED_HEADERS = ['content-type', 'request-id'];

/** A usage reader for one stream: message_start gives input, message_delta cumulative output. */
export function anthropicSseUsageReader(): (event: SseEvent) => Partial<Usage> | undefined {
  const input: AnthropicInputUsage = {};
  return (event) => {
    if (event.event !== 'message_start' && event.event !== 'message_delta') return undefined;
    let wire: Partial<AnthropicUsage> | undefined;
    try {
      const data = JSON.parse(event.data) as { message?: { usage?: Partial<AnthropicUsage> }; usage?: Partial<AnthropicUsage> };
      wire = event.event === 'message_start' ? data.message?.usage : data.usage;
    } catch {
      return undefined;
    }
    if (!wire) return undefined;
    if (typeof wire.input_tokens === 'number') input.input_tokens = wire.input_tokens;
    if (typeof wire.cache_creation_input_tokens === 'number') input.cache_creation_input_tokens = wire.cache_creation_input_tokens;
    if (typeof wire.cache_read_input_tokens === 'number') input.cache_read_input_tokens = wire.cache_read_input_tokens;
    const usage: Partial<Usage> = fromAnthropicInputUsage(input);
    if (typeof wire.output_tokens === 'number') usage.outputTokens = wire.output_tokens;
    return usage;
  };
}

function jsonUsage(document: unknown): Partial<Usage> | undefined {
  const usage = (document as { usage?: AnthropicUsage } | null)?.usage;
  return usage && typeof usage === 'object' ? fromAnthropicUsage(usage) : undefined;
}

export async function anthropicPassthrough(request: RawChatRequest, attempt: Attempt): Promise<PassthroughResponse> {
  const response = await sendUpstream({
    url: anthropicMessagesUrl(attempt),
    headers: anthropicHeaders(attempt, request.headers),
    body: JSON.stringify({ ...request.body, model: attempt.upstreamModel }),
    signal: attempt.signal,
    timeoutMs: attempt.channel.timeoutMs,
  });
  if (response.status < 200 || response.status >= 300) {
    throw mapAnthropicError(response.status, await readErrorText(response.body), response.headers);
  }
  const headers: Record<string, string> = {};
  for (const name of RELAYED_HEADERS) {
    const value = headerValue(response.headers, name);
    if (value !== undefined) headers[name] = value;
  }
  const isSse = (headers['content-type'] ?? '').includes('text/event-stream');
  if (!isSse) relayContentLength(response.headers, headers);
  const tapped = isSse ? tapSse(response.body, anthropicSseUsageReader()) : tapJson(response.body, jsonUsage, 'usage');
  return { status: response.status, headers, body: tapped.body, usage: tapped.usage };
}
