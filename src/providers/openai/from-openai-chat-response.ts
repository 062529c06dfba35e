/** An upstream `chat.completion` → canonical ChatResponse. */
import type { ChatResponse } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { nowSeconds, prefixedId } from '../../core/ids.js';
import type { OpenAIChatCompletion } from '../../core/wire/openai-chat-types.js';
import { fromOpenAIFinishReason } from '../../core/wire/openai-finish-reason.js';
import { fromOpenAIUsage } from '../../core/wire/openai-usage.js';

type LooseCompletion = Partial<Omit<OpenAIChatCompletion, 'choices'>> & {
  choices?: Array<Partial<OpenAIChatCompletion['choices'][number]>>;
};

export function fromOpenAIChatResponse(body: LooseCompletion): ChatResponse {
  const choice = body.choices?.[0];
  if (!choice || typeof choice.message !== 'object' || choice.message === null) {
    throw new GatewayError('upstream', 'upstream answered without a choice', { retryable: true });
  }
  const message = choice.message;
  const content: ChatResponse['content'] = [];
  const reasoning = message.reasoning_content ?? message.reasoning;
  if (typeof reasoning === 'string' && reasoning.length > 0) content.push({ type: 'thinking', text: reasoning });
  if (typeof message.content === 'string' && message.content.length > 0) content.push({ type: 'text', text: message.content });
  const refused = typeof message.refusal === 'string' && message.refusal.length > 0;
  if (refused) content.push({ type: 'text', text: message.refusal as string });
  for (const call of message.tool_calls ?? []) {
    const args: unknown = call.function?.arguments;
    content.push({
      type: 'tool_call',
      id: call.id || prefixedId('call_'),
      name: call.function?.name ?? '',
      // Some compatible servers send the arguments as an object rather than a JSON string.
      arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
    });
  }
  return {
    id: body.id || prefixedId('chatcmpl-'),
    model: body.model ?? '',
    created: typeof body.created === 'number' ? body.created : nowSeconds(),
    content,
    finishReason: refused && choice.finish_reason === 'stop' ? 'refusal' : fromOpenAIFinishReason(choice.finish_reason),
    usage: fromOpenAIUsage(body.usage ?? {}),
  };
}
