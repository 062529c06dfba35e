/**
 * Same-dialect pass-through: the client's Messages body goes upstream with only the model
 * rewritten; the answer is relayed as the upstream wrote it (naming the public model) while a
 * tap reads usage and the produced text from it.
 */
import type { SseEvent } from '../../core/sse.js';
import type { Usage } from '../../core/usage.js';
import { fromAnthropicInputUsage, fromAnthropicUsage, type AnthropicInputUsage } from '../../core/wire/anthropic-usage.js';
import type { AnthropicUsage } from '../../core/wire/anthropic-types.js';
import { forEachStringValue } from '../shared/json-members.js';
import { bytesAt } from '../shared/byte-edits.js';
import { publicModelOf, renameModel, renameModelBytes } from '../shared/public-model.js';
import { headerValue } from '../shared/upstream-http.js';
import { tapJson } from '../shared/json-tap.js';
import type { EventBytes } from '../shared/sse-event-bytes.js';
import { type SseEventReader, tapSse } from '../shared/sse-tap.js';
import type { PassthroughResponse, RawChatRequest } from '../../core/passthrough.js';
import type { Attempt } from '../types.js';
import { ANTHROPIC_API_ENDPOINT, type AnthropicEndpoint, postAnthropic } from './anthropic-request.js';

/** A usage reader for one stream: message_start gives input, message_delta cumulative output. */
function anthropicSseUsageReader(): (event: SseEvent) => Partial<Usage> | undefined {
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

/**
 * The stream reader: usage from message_start and message_delta, produced text from the
 * deltas (text, tool input JSON, thinking), and the public model in message_start.
 */
export function anthropicStreamReader(model: string | undefined): SseEventReader {
  const usageOf = anthropicSseUsageReader();
  return (event, found) => {
    const data = event.data;
    if (event.event === 'content_block_delta') return data;
    const usage = usageOf(event);
    if (usage) found.usage(usage);
    return event.event === 'message_start' && model !== undefined ? renameModel(data, 'model', 2, model) : data;
  };
}

const CONTENT_BLOCK_DELTA = Buffer.from('content_block_delta');

/** The deltas, which the reader relays as they are and reads nothing from, pass on their bytes. */
export function anthropicInPlace(event: EventBytes): boolean {
  const { nameStart, nameEnd } = event;
  return nameEnd - nameStart === CONTENT_BLOCK_DELTA.length && bytesAt(event.bytes, nameStart, CONTENT_BLOCK_DELTA);
}

/** The text, tool input JSON and thinking of a delta event, for billing a stream cut short. */
export function anthropicProducedText(event: SseEvent, emit: (text: string) => void): void {
  if (event.event !== 'content_block_delta') return;
  forEachStringValue(event.data, 'text', emit);
  forEachStringValue(event.data, 'partial_json', emit);
  forEachStringValue(event.data, 'thinking', emit);
}

function jsonUsage(document: unknown): Partial<Usage> | undefined {
  const usage = (document as { usage?: AnthropicUsage } | null)?.usage;
  return usage && typeof usage === 'object' ? fromAnthropicUsage(usage) : undefined;
}

export async function anthropicPassthrough(
  request: RawChatRequest,
  attempt: Attempt,
  endpoint: AnthropicEndpoint = ANTHROPIC_API_ENDPOINT,
): Promise<PassthroughResponse> {
  const response = await postAnthropic(endpoint, attempt, { ...request.body, model: attempt.upstreamModel }, request.headers);
  const contentType = headerValue(response.headers, 'content-type');
  const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
  const upstreamRequestId = headerValue(response.headers, 'request-id');
  const model = publicModelOf(request);
  if ((contentType ?? '').includes('text/event-stream')) {
    const tapped = tapSse(response.body, anthropicStreamReader(model), {
      rewrites: model !== undefined,
      producedTextOf: anthropicProducedText,
      lastRewrite: (event) => event.event === 'message_start',
      inPlace: anthropicInPlace,
      beforeEnd: request.beforeEnd,
      cutEvent: request.cutEvent,
    });
    return { status: response.status, headers, upstreamRequestId, body: tapped.body, usage: tapped.result };
  }
  const tapped = await tapJson(response.body, {
    extract: jsonUsage,
    usageKey: 'usage',
    rewrite: model === undefined ? undefined : (text) => renameModel(text, 'model', 1, model),
    rewriteBytes: model === undefined ? undefined : (bytes) => renameModelBytes(bytes, 'model', model),
  });
  const length = tapped.length ?? headerValue(response.headers, 'content-length');
  if (length !== undefined) headers['content-length'] = String(length);
  return { status: response.status, headers, upstreamRequestId, body: tapped.body, usage: tapped.result };
}
