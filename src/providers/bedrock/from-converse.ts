/**
 * A Converse answer (`output.message.content`, `stopReason`, `usage`) → the canonical ChatResponse.
 */
import type { ChatResponse } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { nowSeconds, prefixedId } from '../../core/ids.js';
import { type ConverseUsage, fromConverseUsage, mapConverseStopReason } from './converse-usage.js';

interface ConverseBlock {
  text?: unknown;
  toolUse?: { toolUseId?: unknown; name?: unknown; input?: unknown };
  reasoningContent?: { reasoningText?: { text?: unknown; signature?: unknown }; redactedContent?: unknown };
}

export interface ConverseAnswer {
  output?: { message?: { content?: unknown } };
  stopReason?: unknown;
  usage?: ConverseUsage;
  additionalModelResponseFields?: { stop_sequence?: unknown };
}

export function fromConverse(answer: ConverseAnswer, model: string, requestId: string | undefined): ChatResponse {
  const blocks = answer?.output?.message?.content;
  if (!Array.isArray(blocks)) throw new GatewayError('upstream', 'bedrock upstream answered without output.message.content', { retryable: true });
  const content: ChatResponse['content'] = [];
  for (const block of blocks as ConverseBlock[]) {
    if (typeof block?.text === 'string') {
      content.push({ type: 'text', text: block.text });
    } else if (block?.toolUse) {
      const { toolUseId, name, input } = block.toolUse;
      if (typeof toolUseId !== 'string' || typeof name !== 'string')
        throw new GatewayError('upstream', 'bedrock upstream answered a toolUse without id or name', { retryable: true });
      content.push({ type: 'tool_call', id: toolUseId, name, arguments: JSON.stringify(input ?? {}) });
    } else if (block?.reasoningContent) {
      const { reasoningText, redactedContent } = block.reasoningContent;
      if (typeof redactedContent === 'string') content.push({ type: 'thinking', text: '', redacted: redactedContent });
      else if (typeof reasoningText?.text === 'string')
        content.push({
          type: 'thinking',
          text: reasoningText.text,
          ...(typeof reasoningText.signature === 'string' ? { signature: reasoningText.signature } : {}),
        });
    }
  }
  const stopSequence = answer.additionalModelResponseFields?.stop_sequence;
  return {
    id: requestId ? `msg_bdrk_${requestId}` : prefixedId('msg_bdrk_'),
    model,
    created: nowSeconds(),
    content,
    finishReason: mapConverseStopReason(answer.stopReason),
    stopSequence: typeof stopSequence === 'string' ? stopSequence : null,
    usage: fromConverseUsage(answer.usage),
  };
}
