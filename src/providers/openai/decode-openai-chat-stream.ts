/**
 * An upstream OpenAI SSE stream → canonical ChatEvents. Tool calls are tracked by their
 * `index`; servers differ in how they split a call (id, name and first arguments in one
 * chunk, or spread over several; some omit the index), so a call starts once its name is
 * known and argument pieces seen earlier are replayed. `finish` waits for `[DONE]` (or the
 * end of the body) because the usage chunk follows the finish reason.
 */
import type { ChatEvent, FinishReason } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { nowSeconds, prefixedId } from '../../core/ids.js';
import { readSse } from '../../core/sse.js';
import type { Usage } from '../../core/usage.js';
import type { OpenAIChatCompletionChunk, OpenAIToolCallDelta } from '../../core/wire/openai-chat-types.js';
import { fromOpenAIFinishReason } from '../../core/wire/openai-finish-reason.js';
import { fromOpenAIUsage } from '../../core/wire/openai-usage.js';
import { mapOpenAIStreamError } from './map-openai-error.js';

interface ToolCallState {
  index: number;
  id?: string;
  name?: string;
  started: boolean;
  pendingArguments: string;
}

class ToolCallTracker {
  private readonly byKey = new Map<number, ToolCallState>();
  private lastKey: number | undefined;
  private nextIndex = 0;
  private nextSyntheticKey = -1;

  *apply(delta: OpenAIToolCallDelta): Generator<ChatEvent> {
    const key = this.keyFor(delta);
    let call = this.byKey.get(key);
    // A new id under a known index is a new call (some servers reuse index 0 for every call).
    if (!call || (delta.id && call.id && delta.id !== call.id)) {
      call = { index: this.nextIndex++, started: false, pendingArguments: '' };
      this.byKey.set(key, call);
    }
    this.lastKey = key;
    if (delta.id && !call.id) call.id = delta.id;
    if (delta.function?.name && !call.started) call.name = delta.function.name;
    const args = delta.function?.arguments;
    if (typeof args === 'string' && args.length > 0) {
      if (call.started) yield { type: 'tool_call_delta', index: call.index, argumentsDelta: args };
      else call.pendingArguments += args;
    }
    if (!call.started && call.name) yield* this.start(call);
  }

  /** Calls that never got a name still surface at the end rather than vanish. */
  *flush(): Generator<ChatEvent> {
    for (const call of this.byKey.values()) if (!call.started) yield* this.start(call);
  }

  private *start(call: ToolCallState): Generator<ChatEvent> {
    call.started = true;
    yield { type: 'tool_call_start', index: call.index, id: call.id ?? prefixedId('call_'), name: call.name ?? '' };
    if (call.pendingArguments.length > 0) {
      yield { type: 'tool_call_delta', index: call.index, argumentsDelta: call.pendingArguments };
      call.pendingArguments = '';
    }
  }

  private keyFor(delta: OpenAIToolCallDelta): number {
    if (typeof delta.index === 'number') return delta.index;
    const last = this.lastKey === undefined ? undefined : this.byKey.get(this.lastKey);
    if (this.lastKey === undefined || (delta.id && last?.id && delta.id !== last.id)) return this.nextSyntheticKey--;
    return this.lastKey;
  }
}

interface DecodeOptions {
  /** Used for the `start` event when the upstream omits the model. */
  model: string;
}

export async function* decodeOpenAIChatStream(body: AsyncIterable<Uint8Array | string>, options: DecodeOptions): AsyncGenerator<ChatEvent> {
  let started = false;
  let finishReason: FinishReason | undefined;
  let refused = false;
  let usage: Usage = { inputTokens: 0, outputTokens: 0 };
  const tools = new ToolCallTracker();

  try {
    for await (const event of readSse(body)) {
      const data = event.data.trim();
      if (data.length === 0) continue;
      if (data === '[DONE]') break;
      let chunk: Partial<OpenAIChatCompletionChunk> & { error?: unknown };
      try {
        chunk = JSON.parse(data) as typeof chunk;
      } catch {
        yield { type: 'error', error: new GatewayError('upstream', `upstream sent a malformed stream chunk: ${data.slice(0, 200)}`) };
        return;
      }
      if (chunk === null || typeof chunk !== 'object') continue;
      if (chunk.error !== undefined && chunk.error !== null) {
        yield { type: 'error', error: mapOpenAIStreamError(chunk as Record<string, unknown>) };
        return;
      }
      if (!started) {
        started = true;
        yield {
          type: 'start',
          id: chunk.id || prefixedId('chatcmpl-'),
          model: chunk.model || options.model,
          created: typeof chunk.created === 'number' ? chunk.created : nowSeconds(),
        };
      }
      if (chunk.usage) usage = fromOpenAIUsage(chunk.usage);
      for (const choice of chunk.choices ?? []) {
        if ((choice.index ?? 0) !== 0) continue;
        const delta = choice.delta;
        if (delta) {
          const reasoning = delta.reasoning_content ?? delta.reasoning;
          if (typeof reasoning === 'string' && reasoning.length > 0) yield { type: 'thinking_delta', text: reasoning };
          if (typeof delta.content === 'string' && delta.content.length > 0) yield { type: 'text_delta', text: delta.content };
          if (typeof delta.refusal === 'string' && delta.refusal.length > 0) {
            refused = true;
            yield { type: 'text_delta', text: delta.refusal };
          }
          if (Array.isArray(delta.tool_calls)) for (const call of delta.tool_calls) yield* tools.apply(call);
        }
        if (choice.finish_reason) finishReason = fromOpenAIFinishReason(choice.finish_reason);
      }
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    yield { type: 'error', error: new GatewayError('upstream', `upstream stream broke off: ${message}`, { cause: error }) };
    return;
  }
  if (finishReason === undefined) {
    yield { type: 'error', error: new GatewayError('upstream', 'upstream stream ended early') };
    return;
  }
  yield* tools.flush();
  yield { type: 'finish', finishReason: refused && finishReason === 'stop' ? 'refusal' : finishReason, usage };
}
