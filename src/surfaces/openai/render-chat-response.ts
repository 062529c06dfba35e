/** Canonical ChatResponse → an OpenAI `chat.completion` object. */
import type { ChatChoice, ChatResponse } from '../../core/chat.js';
import type { OpenAIChatCompletion, OpenAIToolCall } from '../../core/wire/openai-chat-types.js';
import { toOpenAIFinishReason } from '../../core/wire/openai-finish-reason.js';
import { toOpenAIUsage } from '../../core/wire/openai-usage.js';

/** Thinking parts are left out: OpenAI's chat completion has no field for them. */
export function renderOpenAIChatResponse(response: ChatResponse): OpenAIChatCompletion {
  const choices: ChatChoice[] = [response, ...(response.otherChoices ?? [])];
  return {
    id: response.id,
    object: 'chat.completion',
    created: response.created,
    model: response.model,
    choices: choices.map((choice, index) => ({ index, message: toMessage(choice), logprobs: null, finish_reason: toOpenAIFinishReason(choice.finishReason) })),
    usage: toOpenAIUsage(response.usage),
  };
}

function toMessage(choice: ChatChoice): OpenAIChatCompletion['choices'][number]['message'] {
  let text: string | undefined;
  const toolCalls: OpenAIToolCall[] = [];
  for (const part of choice.content) {
    if (part.type === 'text') text = (text ?? '') + part.text;
    else if (part.type === 'tool_call') {
      toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
    }
  }
  const content = text !== undefined && text.length > 0 ? text : toolCalls.length > 0 ? null : (text ?? '');
  const message: OpenAIChatCompletion['choices'][number]['message'] = { role: 'assistant', content, refusal: null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}
