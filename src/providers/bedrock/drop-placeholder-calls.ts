/**
 * A call of the placeholder tool (to-converse.ts: declared only when no tool may be called but
 * Converse requires a `toolConfig`) is never the client's: it is dropped from the answer, whole or
 * streamed, the remaining tool calls keep consecutive indices, and a finish for tool calls with no
 * call left becomes a plain stop.
 */
import type { ChatEvent, ChatResponse } from '../../core/chat.js';
import { NO_TOOL_NAME } from './to-converse.js';

const DROPPED = 'tool_choice: none: the model called the placeholder tool anyway; the call was dropped from the answer';

export function dropPlaceholderCalls(response: ChatResponse, warn: (message: string) => void): ChatResponse {
  const content = response.content.filter((part) => part.type !== 'tool_call' || part.name !== NO_TOOL_NAME);
  if (content.length === response.content.length) return response;
  warn(DROPPED);
  const calls = content.some((part) => part.type === 'tool_call');
  return { ...response, content, finishReason: response.finishReason === 'tool_calls' && !calls ? 'stop' : response.finishReason };
}

export async function* dropPlaceholderCallsInStream(events: AsyncIterable<ChatEvent>, warn: (message: string) => void): AsyncGenerator<ChatEvent> {
  const kept = new Map<number, number>();
  const dropped = new Set<number>();
  for await (const event of events) {
    if (event.type === 'tool_call_start') {
      if (event.name === NO_TOOL_NAME) {
        if (dropped.size === 0) warn(DROPPED);
        dropped.add(event.index);
        continue;
      }
      kept.set(event.index, kept.size);
      yield { ...event, index: kept.size - 1 };
    } else if (event.type === 'tool_call_delta') {
      const index = kept.get(event.index);
      if (index !== undefined) yield { ...event, index };
    } else if (event.type === 'finish' && event.finishReason === 'tool_calls' && dropped.size > 0 && kept.size === 0) {
      yield { ...event, finishReason: 'stop' };
    } else {
      yield event;
    }
  }
}
