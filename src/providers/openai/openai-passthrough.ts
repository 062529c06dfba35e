/**
 * Same-dialect relay: the client's body goes upstream with only the model rewritten, and the
 * answer comes back as the upstream wrote it, except that it names the public model and that,
 * when the gateway itself asked for the usage chunk (to meter a stream the client did not ask
 * usage for), the client gets exactly the bytes it would have got without that request: no
 * `"usage":null` member in the chunks and no usage-only chunk.
 */
import type { SseEvent } from '../../core/sse.js';
import type { OpenAIUsage } from '../../core/wire/openai-chat-types.js';
import { fromOpenAIUsage } from '../../core/wire/openai-usage.js';
import { findMembers, forEachStringValue, removeMember, replaceValue, valueIs, type MemberSpan } from '../shared/json-members.js';
import { publicModelOf, renameModel, renameModelBytes } from '../shared/public-model.js';
import { headerValue } from '../shared/upstream-http.js';
import { type ByteEdits, bytesAt } from '../shared/byte-edits.js';
import { tapJson } from '../shared/json-tap.js';
import type { EventBytes } from '../shared/sse-event-bytes.js';
import type { TapFindings } from '../shared/sse-findings.js';
import { type InPlaceReader, type SseEventReader, tapSse } from '../shared/sse-tap.js';
import type { PassthroughResponse, RawChatRequest } from '../../core/passthrough.js';
import type { Attempt } from '../types.js';
import type { OpenAIFlavour } from './openai-flavour.js';
import { postChatCompletions, wantsStreamUsage } from './openai-upstream.js';

const USAGE_OBJECT = /"usage"\s*:\s*\{/;

export async function openAIPassthrough(raw: RawChatRequest, attempt: Attempt, flavour: OpenAIFlavour): Promise<PassthroughResponse> {
  const { channel } = attempt;
  const body: Record<string, unknown> = { ...raw.body, model: attempt.upstreamModel };
  let injectedUsage = false;
  if (raw.stream && wantsStreamUsage(channel) && !clientAskedUsage(raw.body)) {
    const streamOptions = isObject(raw.body.stream_options) ? raw.body.stream_options : {};
    body.stream_options = { ...streamOptions, include_usage: true };
    injectedUsage = true;
  }
  const response = await postChatCompletions(body, attempt, flavour);
  const headers: Record<string, string> = {};
  const contentType = headerValue(response.headers, 'content-type');
  if (contentType) headers['content-type'] = contentType;
  const upstreamRequestId = headerValue(response.headers, 'x-request-id');
  const model = publicModelOf(raw);

  const isSse = raw.stream && (contentType === undefined || contentType.includes('text/event-stream'));
  if (isSse) {
    const tapped = tapSse(response.body, openAIStreamReader(model, injectedUsage), {
      rewrites: model !== undefined || injectedUsage,
      producedTextOf: openAIProducedText,
      inPlace: openAIInPlace(model, injectedUsage),
      beforeEnd: raw.beforeEnd,
      cutEvent: raw.cutEvent,
    });
    return { status: response.status, headers, upstreamRequestId, body: tapped.body, usage: tapped.result };
  }
  const tapped = await tapJson(response.body, {
    extract: usageOfDocument,
    usageKey: 'usage',
    rewrite: model === undefined ? undefined : (text) => renameModel(text, 'model', 1, model),
    rewriteBytes: model === undefined ? undefined : (bytes) => renameModelBytes(bytes, 'model', model),
  });
  const length = tapped.length ?? headerValue(response.headers, 'content-length');
  if (length !== undefined) headers['content-length'] = String(length);
  return { status: response.status, headers, upstreamRequestId, body: tapped.body, usage: tapped.result };
}

/**
 * Reads usage (parsing only the chunks that carry a usage object) and the produced text of
 * each chunk; renames the model and, when the usage chunk was the gateway's idea, removes
 * `"usage":null` from the chunks and drops the usage-only chunk.
 */
export function openAIStreamReader(model: string | undefined, injectedUsage: boolean): SseEventReader {
  const keys = [...(model !== undefined ? ['model'] : []), ...(injectedUsage ? ['usage'] : [])];
  const modelJson = model === undefined ? '' : JSON.stringify(model);
  return (event: SseEvent, found: TapFindings): string | null => {
    const data = event.data;
    if (data === '[DONE]') return data;
    if (USAGE_OBJECT.test(data) && readUsage(data, found) && injectedUsage) return null;
    if (keys.length === 0) return data;
    const quick = quickEdit(data, modelJson, injectedUsage);
    if (quick !== undefined) return quick;
    const spans = findMembers(data, keys, 1);
    const edits: Array<[MemberSpan, string | null]> = [];
    const modelSpan = spans.get('model');
    if (modelSpan && data.charCodeAt(modelSpan.valueStart) === 34 && !valueIs(data, modelSpan, modelJson)) edits.push([modelSpan, modelJson]);
    const usageSpan = spans.get('usage');
    if (usageSpan && valueIs(data, usageSpan, 'null')) edits.push([usageSpan, null]);
    // Right to left, so each edit leaves the other's offsets valid.
    edits.sort((a, b) => b[0].keyStart - a[0].keyStart);
    let out = data;
    for (const [span, value] of edits) out = value === null ? removeMember(out, span) : replaceValue(out, span, value);
    return out;
  };
}

const USAGE_KEY = Buffer.from('"usage"');
const MODEL_KEY_BYTES = Buffer.from('"model":');
const USAGE_NULL_TAIL_BYTES = Buffer.from(',"usage":null}');
const DONE = Buffer.from('[DONE]');

/**
 * What `openAIStreamReader` does to the common chunk, done on its bytes: a chunk that may carry
 * a usage object (and any chunk of another shape) is left to the reader; the others are relayed
 * as received, or with the public model spliced in and `,"usage":null` cut off the end. The
 * search for `"usage"` is a cursor over the chunk, so a chunk of many events is scanned once.
 */
export function openAIInPlace(model: string | undefined, injectedUsage: boolean): InPlaceReader {
  const modelJson = model === undefined ? undefined : Buffer.from(JSON.stringify(model), 'utf8');
  /**
   * Whether `bytes[from, to)` has a `"usage"` that is not plainly followed by `:` and a value
   * other than an object. The search is a cursor over the chunk, so a chunk of many events is
   * scanned once (and one event's tail key, known to be `"usage":null`, ends the search).
   */
  let usageIn: Buffer | undefined;
  let usageAt = -1;
  const mayCarryUsageObject = (bytes: Buffer, from: number, to: number): boolean => {
    if (usageIn !== bytes || (usageAt !== -1 && usageAt < from)) {
      usageIn = bytes;
      usageAt = nextUsageKey(bytes, from);
    }
    while (usageAt !== -1 && usageAt < to) {
      const colon = usageAt + USAGE_KEY.length;
      const next = bytes[colon + 1];
      if (bytes[colon] !== 58 /* : */ || next === undefined || next <= 32 || next >= 128 || next === 123 /* { */) return true;
      usageAt = nextUsageKey(bytes, colon);
    }
    return false;
  };
  return (event: EventBytes, edits: ByteEdits): boolean => {
    const { bytes, dataStart, dataEnd } = event;
    if (event.nameStart !== -1) return false;
    if (dataEnd - dataStart === DONE.length && bytesAt(bytes, dataStart, DONE)) return true;
    if (modelJson === undefined && !injectedUsage) return !mayCarryUsageObject(bytes, dataStart, dataEnd);
    // Without the tail `,"usage":null` (its `}` stays).
    let kept = dataEnd;
    let tailKey = -1;
    if (injectedUsage) {
      kept = dataEnd - USAGE_NULL_TAIL_BYTES.length;
      if (kept <= dataStart || !bytesAt(bytes, kept, USAGE_NULL_TAIL_BYTES)) return false;
      tailKey = kept + 1;
    }
    if (mayCarryUsageObject(bytes, dataStart, tailKey === -1 ? dataEnd : tailKey)) return false;
    if (modelJson !== undefined) {
      const valueStart = modelValueAt(bytes, dataStart, kept);
      const valueEnd = valueStart === -1 ? -1 : plainStringEnd(bytes, valueStart, kept);
      if (valueEnd === -1) return false;
      if (valueEnd - valueStart !== modelJson.length || !bytesAt(bytes, valueStart, modelJson)) edits.replace(valueStart, valueEnd, modelJson);
    }
    if (kept < dataEnd) edits.replace(kept, dataEnd - 1);
    return true;
  };
}

const USAGE_KEY_TAIL = Buffer.from('usage"');

/**
 * Where the next `"usage"` starts, from `from` on; -1 when there is none. Searched by its tail:
 * a search for a needle that starts with `"` stops at every quote of the JSON, `u` is rarer.
 */
function nextUsageKey(bytes: Buffer, from: number): number {
  for (let at = bytes.indexOf(USAGE_KEY_TAIL, from + 1); at !== -1; at = bytes.indexOf(USAGE_KEY_TAIL, at + 1)) {
    if (bytes[at - 1] === 34 /* " */) return at - 1;
  }
  return -1;
}

/**
 * Where the value of `"model":` starts in the object `bytes[from, to)`, when it is a member of
 * the top-level object that comes before any nested value or escape; -1 otherwise (decode the event).
 */
function modelValueAt(bytes: Buffer, from: number, to: number): number {
  if (bytes[from] !== 123 /* { */) return -1;
  for (let i = from + 1; i < to; i++) {
    const c = bytes[i];
    if (c === 34 /* " */) {
      if (bytesAt(bytes, i, MODEL_KEY_BYTES)) return i + MODEL_KEY_BYTES.length;
    } else if (c === 123 || c === 91 /* [ */ || c === 92 /* \ */) return -1;
  }
  return -1;
}

/** The end (after the closing quote) of the string that starts at `start`, when it ends before `to` without an escape; -1 otherwise. */
function plainStringEnd(bytes: Buffer, start: number, to: number): number {
  if (bytes[start] !== 34 /* " */) return -1;
  for (let i = start + 1; i < to; i++) {
    const c = bytes[i];
    if (c === 34) return i + 1;
    if (c === 92 /* \ */) return -1;
  }
  return -1;
}

/** The assistant text and tool arguments of a chunk, for billing a stream cut short. */
export function openAIProducedText(event: SseEvent, emit: (text: string) => void): void {
  forEachStringValue(event.data, 'content', emit);
  forEachStringValue(event.data, 'arguments', emit);
}

const MODEL_KEY = '"model":';
const USAGE_NULL_TAIL = ',"usage":null}';

/**
 * The common case without a scan of the chunk: OpenAI writes `id`, `object`, `created`, `model`
 * first and `"usage":null` last, compactly. Applies only when the `"model":` found is in the
 * top-level object before any nested value (no other `{`, `[` or escaped quote before it);
 * undefined means "not this shape": the caller falls back to the member scan.
 */
function quickEdit(data: string, modelJson: string, removeUsageNull: boolean): string | undefined {
  let out = data;
  if (removeUsageNull) {
    if (!out.endsWith(USAGE_NULL_TAIL)) return undefined;
    out = `${out.slice(0, -USAGE_NULL_TAIL.length)}}`;
  }
  if (modelJson === '') return out;
  const at = out.indexOf(MODEL_KEY);
  if (at <= 0 || !isPlainPrefix(out, at)) return undefined;
  const valueStart = at + MODEL_KEY.length;
  if (out.charCodeAt(valueStart) !== 34 /* " */) return undefined;
  const valueEnd = out.indexOf('"', valueStart + 1);
  if (valueEnd === -1 || out.charCodeAt(valueEnd - 1) === 92 /* \ */) return undefined;
  if (out.slice(valueStart, valueEnd + 1) === modelJson) return out;
  return out.slice(0, valueStart) + modelJson + out.slice(valueEnd + 1);
}

/** True when `text[0..end)` opens exactly one object and holds no array, nested object or escape. */
function isPlainPrefix(text: string, end: number): boolean {
  if (text.charCodeAt(0) !== 123 /* { */) return false;
  for (let i = 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 123 || c === 91 /* [ */ || c === 92 /* \ */) return false;
  }
  return true;
}

/** Reports the chunk's usage; true when it is the usage-only chunk (no choices). */
function readUsage(data: string, found: TapFindings): boolean {
  let chunk: { usage?: OpenAIUsage | null; choices?: unknown[] };
  try {
    chunk = JSON.parse(data) as typeof chunk;
  } catch {
    return false;
  }
  if (!chunk.usage) return false;
  found.usage(fromOpenAIUsage(chunk.usage));
  return Array.isArray(chunk.choices) && chunk.choices.length === 0;
}

function usageOfDocument(document: unknown) {
  if (!isObject(document) || !isObject(document.usage)) return undefined;
  return fromOpenAIUsage(document.usage as Partial<OpenAIUsage>);
}

function clientAskedUsage(body: Record<string, unknown>): boolean {
  return isObject(body.stream_options) && body.stream_options.include_usage === true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
