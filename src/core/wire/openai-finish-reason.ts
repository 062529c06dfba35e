/** Both directions between canonical finish reasons and OpenAI's `finish_reason`. */
import type { FinishReason } from '../chat.js';
import type { OpenAIFinishReason } from './openai-chat-types.js';

/** What an OpenAI client sees; OpenAI does not tell a stop sequence from a natural stop. */
export function toOpenAIFinishReason(reason: FinishReason): Exclude<OpenAIFinishReason, 'function_call'> {
  switch (reason) {
    case 'length':
      return 'length';
    case 'tool_calls':
      return 'tool_calls';
    case 'content_filter':
    case 'refusal':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/** What an OpenAI (or OpenAI-compatible) upstream's `finish_reason` means canonically. */
export function fromOpenAIFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}
