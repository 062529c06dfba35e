import type { ChatResponse } from '../../core/chat.js';
import type { SandboxAnswer } from './build-sandbox-answer.js';

export function toSandboxResponse(answer: SandboxAnswer, model: string, created: number): ChatResponse {
  return {
    id: answer.id,
    model,
    created,
    content: answer.toolCalls.length > 0 ? answer.toolCalls : answer.text.length > 0 ? [{ type: 'text', text: answer.text }] : [],
    finishReason: answer.finishReason,
    stopSequence: answer.stopSequence,
    usage: { ...answer.usage },
  };
}
