/**
 * The Responses API relayed to OpenAI untranslated: the body the Responses surface prepared (its
 * relay policy applied: the gateway's state expanded, `store: false`) goes to `<base>/responses`
 * with only the model rewritten, and the answer comes back byte for byte, read on the way for
 * usage (`response.usage` of the terminal event, or of the JSON object) and, for a stream cut
 * short, the text produced. Ids and the public model are the surface's to rewrite: it issues the
 * gateway's ids and keeps the items.
 */
import type { PassthroughResponse, RawChatRequest } from '../../core/passthrough.js';
import type { SseEvent } from '../../core/sse.js';
import type { Usage } from '../../core/usage.js';
import { tapJson } from '../shared/json-tap.js';
import type { TapFindings } from '../shared/sse-findings.js';
import { tapSse } from '../shared/sse-tap.js';
import { headerValue } from '../shared/upstream-http.js';
import type { Attempt } from '../types.js';
import type { OpenAIFlavour } from './openai-flavour.js';
import { postResponses } from './openai-upstream.js';

/** The events that end a response, each carrying the response object with its usage. */
const TERMINAL_EVENTS: ReadonlySet<string> = new Set(['response.completed', 'response.incomplete', 'response.failed']);
const DELTA_EVENTS: ReadonlySet<string> = new Set(['response.output_text.delta', 'response.function_call_arguments.delta', 'response.refusal.delta']);

export async function openAIResponsesPassthrough(
  raw: RawChatRequest,
  attempt: Attempt,
  flavour: Pick<OpenAIFlavour, 'endpoint'> = {},
): Promise<PassthroughResponse> {
  const response = await postResponses({ ...raw.body, model: attempt.upstreamModel }, attempt, flavour);
  const headers: Record<string, string> = {};
  const contentType = headerValue(response.headers, 'content-type');
  if (contentType) headers['content-type'] = contentType;
  const upstreamRequestId = headerValue(response.headers, 'x-request-id');
  if (raw.stream && (contentType === undefined || contentType.includes('text/event-stream'))) {
    const tapped = tapSse(response.body, readTerminalUsage, {
      rewrites: false,
      producedTextOf: producedText,
      beforeEnd: raw.beforeEnd,
      cutEvent: raw.cutEvent,
    });
    return { status: response.status, headers, upstreamRequestId, body: tapped.body, usage: tapped.result };
  }
  const tapped = await tapJson(response.body, { extract: usageOfResponse, usageKey: 'usage' });
  const length = tapped.length ?? headerValue(response.headers, 'content-length');
  if (length !== undefined) headers['content-length'] = String(length);
  return { status: response.status, headers, upstreamRequestId, body: tapped.body, usage: tapped.result };
}

/** The event's type: its SSE name, which OpenAI always sends, else a look at its data. */
function typeOf(event: SseEvent): string | undefined {
  if (event.event !== undefined) return event.event;
  const match = /^\{\s*"type"\s*:\s*"([a-z_.]+)"/.exec(event.data);
  return match?.[1];
}

function readTerminalUsage(event: SseEvent, found: TapFindings): string {
  const type = typeOf(event);
  if (type === undefined || !TERMINAL_EVENTS.has(type)) return event.data;
  try {
    const usage = usageOfResponse((JSON.parse(event.data) as { response?: unknown }).response);
    if (usage) found.usage(usage);
  } catch {
    // Not JSON: nothing to read; the bytes are relayed all the same.
  }
  return event.data;
}

function producedText(event: SseEvent, emit: (text: string) => void): void {
  const type = typeOf(event);
  if (type === undefined || !DELTA_EVENTS.has(type)) return;
  try {
    const { delta } = JSON.parse(event.data) as { delta?: unknown };
    if (typeof delta === 'string') emit(delta);
  } catch {
    // Not JSON: no text to count.
  }
}

/** `usage` of a Responses object → canonical Usage: `input_tokens` counts cached ones too, as `inputTokens` does. */
export function usageOfResponse(response: unknown): Partial<Usage> | undefined {
  if (!isObject(response) || !isObject(response.usage)) return undefined;
  const { input_tokens, output_tokens, input_tokens_details, output_tokens_details } = response.usage;
  const usage: Partial<Usage> = {};
  if (typeof input_tokens === 'number') usage.inputTokens = input_tokens;
  if (typeof output_tokens === 'number') usage.outputTokens = output_tokens;
  const cached = isObject(input_tokens_details) ? input_tokens_details.cached_tokens : undefined;
  if (typeof cached === 'number' && cached > 0) usage.cacheReadTokens = cached;
  const reasoning = isObject(output_tokens_details) ? output_tokens_details.reasoning_tokens : undefined;
  if (typeof reasoning === 'number' && reasoning > 0) usage.reasoningTokens = reasoning;
  return usage;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
