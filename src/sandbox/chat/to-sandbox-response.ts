import type { ChatResponse } from '../../core/chat.js';
import type { SandboxAnswer } from './build-sandbox-answer.js';

export function toSandboxResponse(answer: SandboxAnswer, model: string, created: number): ChatResponse {
  return {
    id: answer.id,
    model,
    created,
    content: [...(answer.text.length > 0 ? [{ type: 'text' as const, text: answer.text }] : []), ...answer.toolCalls],
    finishReason: answer.finishReason,
    stopSequence: answer.stopSequence,
    usage: { ...answer.usage },
  };
}
