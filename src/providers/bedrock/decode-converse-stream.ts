/**
 * A ConverseStream answer (event-stream frames, `:event-type` messageStart, contentBlockStart,
 * contentBlockDelta, contentBlockStop, messageStop, metadata) → canonical ChatEvents. The finish
 * comes after `metadata`, which carries the usage. Exception frames and frames that fail their
 * CRC end the stream with an error event. Tool-use blocks are numbered 0, 1, … as canonical
 * tool-call indices, whatever their block index.
 */
import type { ChatEvent, FinishReason } from '../../core/chat.js';
import { GatewayError, isGatewayError } from '../../core/errors.js';
import { nowSeconds, prefixedId } from '../../core/ids.js';
import type { Usage } from '../../core/usage.js';
import { type ConverseUsage, fromConverseUsage, mapConverseStopReason } from './converse-usage.js';
import { type EventStreamFrame, framePayloadJson, readEventStream } from './event-stream.js';
import { mapBedrockStreamException } from './map-bedrock-error.js';

interface Delta {
  text?: unknown;
  toolUse?: { input?: unknown };
  reasoningContent?: { text?: unknown; signature?: unknown; redactedContent?: unknown };
}

function exceptionOf(frame: EventStreamFrame): GatewayError | undefined {
  const kind = frame.headers[':message-type'];
  if (kind === 'exception') return mapBedrockStreamException(frame.headers[':exception-type'], frame.payload);
  if (kind === 'error') {
    const code = frame.headers[':error-code'] ?? 'error';
    return new GatewayError('upstream', `bedrock upstream: ${code}: ${frame.headers[':error-message'] ?? 'no error message'}`, { retryable: true, code });
  }
  return undefined;
}

export async function* decodeConverseStream(body: AsyncIterable<Uint8Array | string>, model: string, requestId: string | undefined): AsyncGenerator<ChatEvent> {
  const toolIndexByBlock = new Map<number, number>();
  let finishReason: FinishReason | undefined;
  let stopSequence: string | null = null;
  let usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let started = false;
  const start = (): ChatEvent => {
    started = true;
    return { type: 'start', id: requestId ? `msg_bdrk_${requestId}` : prefixedId('msg_bdrk_'), model, created: nowSeconds() };
  };
  try {
    for await (const frame of readEventStream(body)) {
      const exception = exceptionOf(frame);
      if (exception) {
        yield { type: 'error', error: exception };
        return;
      }
      const event = framePayloadJson(frame);
      if (!started) yield start();
      switch (frame.headers[':event-type']) {
        case 'contentBlockStart': {
          const toolUse = (event.start as { toolUse?: { toolUseId?: unknown; name?: unknown } } | undefined)?.toolUse;
          if (toolUse && typeof toolUse.toolUseId === 'string' && typeof toolUse.name === 'string') {
            const index = toolIndexByBlock.size;
            toolIndexByBlock.set(Number(event.contentBlockIndex), index);
            yield { type: 'tool_call_start', index, id: toolUse.toolUseId, name: toolUse.name };
          }
          break;
        }
        case 'contentBlockDelta': {
          const delta = (event.delta ?? {}) as Delta;
          if (typeof delta.text === 'string') {
            if (delta.text.length > 0) yield { type: 'text_delta', text: delta.text };
          } else if (delta.toolUse) {
            const index = toolIndexByBlock.get(Number(event.contentBlockIndex));
            const input = delta.toolUse.input;
            if (index !== undefined && typeof input === 'string' && input.length > 0) yield { type: 'tool_call_delta', index, argumentsDelta: input };
          } else if (delta.reasoningContent) {
            const { text, signature } = delta.reasoningContent;
            if (typeof text === 'string' && text.length > 0) yield { type: 'thinking_delta', text };
            if (typeof signature === 'string') yield { type: 'thinking_delta', text: '', signature };
          }
          break;
        }
        case 'messageStop': {
          finishReason = mapConverseStopReason(event.stopReason);
          const fields = event.additionalModelResponseFields as { stop_sequence?: unknown } | undefined;
          if (typeof fields?.stop_sequence === 'string') stopSequence = fields.stop_sequence;
          break;
        }
        case 'metadata':
          usage = fromConverseUsage(event.usage as ConverseUsage | undefined);
          if (finishReason !== undefined) {
            yield { type: 'finish', finishReason, stopSequence, usage };
            return;
          }
          break;
      }
    }
  } catch (error) {
    yield {
      type: 'error',
      error: isGatewayError(error) ? error : new GatewayError('upstream', 'bedrock upstream stream failed', { retryable: true, cause: error }),
    };
    return;
  }
  if (finishReason !== undefined) {
    yield { type: 'finish', finishReason, stopSequence, usage };
    return;
  }
  yield { type: 'error', error: new GatewayError('upstream', 'bedrock upstream stream ended before messageStop', { retryable: true }) };
}
