/**
 * Gemini `streamGenerateContent?alt=sse` bytes → canonical chat events. Every chunk is a
 * whole GenerateContentResponse: its parts become deltas (a function call arrives complete,
 * so it becomes a tool_call_start and one tool_call_delta), the last `finishReason` and the
 * last `usageMetadata` seen make the final `finish`. An `{"error":…}` chunk ends the stream
 * with an `error` event.
 */
import type { ChatEvent } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { nowSeconds, prefixedId } from '../../core/ids.js';
import { readSse } from '../../core/sse.js';
import type { Usage } from '../../core/usage.js';
import type { GeminiErrorBody, GeminiGenerateContentResponse } from '../../core/wire/gemini-types.js';
import { fromGeminiUsage } from '../../core/wire/gemini-usage.js';
import { geminiToolCallId } from './gemini-tool-call-id.js';
import { mapGeminiStreamError } from './map-gemini-error.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

type StreamChunk = GeminiGenerateContentResponse & Partial<GeminiErrorBody>;

export async function* decodeGeminiStream(body: AsyncIterable<Uint8Array | string>, model: string): AsyncGenerator<ChatEvent> {
  let started = false;
  let finishReason: string | undefined;
  let blocked = false;
  let usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let toolCalls = 0;
  const start = (id: string | undefined): ChatEvent => {
    started = true;
    return { type: 'start', id: id || prefixedId('gen_'), model, created: nowSeconds() };
  };

  for await (const event of readSse(body)) {
    if (event.data.length === 0) continue;
    let chunk: StreamChunk;
    try {
      chunk = JSON.parse(event.data) as StreamChunk;
    } catch {
      throw new GatewayError('upstream', `gemini upstream sent an invalid stream chunk: ${event.data.slice(0, 200)}`);
    }
    if (chunk.error) {
      yield { type: 'error', error: mapGeminiStreamError(chunk.error) };
      return;
    }
    if (!started) yield start(chunk.responseId);
    if (chunk.usageMetadata) usage = fromGeminiUsage(chunk.usageMetadata);
    const candidate = chunk.candidates?.[0];
    if (!candidate) {
      if (chunk.promptFeedback?.blockReason) blocked = true;
      continue;
    }
    for (const part of candidate.content?.parts ?? []) {
      if (part.functionCall) {
        const index = toolCalls++;
        yield { type: 'tool_call_start', index, id: geminiToolCallId(part.functionCall.id), name: part.functionCall.name };
        yield { type: 'tool_call_delta', index, argumentsDelta: JSON.stringify(part.functionCall.args ?? {}) };
      } else if (typeof part.text === 'string' && part.text.length > 0) {
        if (!part.thought) yield { type: 'text_delta', text: part.text };
        else if (part.thoughtSignature) yield { type: 'thinking_delta', text: part.text, signature: part.thoughtSignature };
        else yield { type: 'thinking_delta', text: part.text };
      }
    }
    if (candidate.finishReason) finishReason = candidate.finishReason;
  }
  if (!started) yield start(undefined);
  const reason = finishReason === undefined && blocked ? 'content_filter' : mapGeminiFinishReason(finishReason, toolCalls > 0);
  yield { type: 'finish', finishReason: reason, usage };
}
