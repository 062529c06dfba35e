/** Canonical ChatResponse → an OpenAI `chat.completion` object. */
import type { ChatChoice, ChatResponse } from '../../core/chat.js';
import type { OpenAIChatCompletion, OpenAIThinkingBlock, OpenAIToolCall } from '../../core/wire/openai-chat-types.js';
import { toOpenAIFinishReason } from '../../core/wire/openai-finish-reason.js';
import { toOpenAIUsage } from '../../core/wire/openai-usage.js';

/** One `choices` entry per canonical choice (the response itself, then `otherChoices`). */
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

/**
 * Thinking goes out as `reasoning_content` (its text) and `thinking_blocks` (signed and
 * redacted blocks, which the client sends back unchanged to continue a tool loop with
 * thinking on; docs/reasoning.md).
 */
function toMessage(choice: ChatChoice): OpenAIChatCompletion['choices'][number]['message'] {
  let text: string | undefined;
  let reasoning: string | undefined;
  const toolCalls: OpenAIToolCall[] = [];
  const thinkingBlocks: OpenAIThinkingBlock[] = [];
  for (const part of choice.content) {
    if (part.type === 'text') text = (text ?? '') + part.text;
    else if (part.type === 'tool_call') {
      toolCalls.push({ id: part.id, type: 'function', function: { name: part.name, arguments: part.arguments } });
    } else if (part.type === 'thinking') {
      if (part.text.length > 0) reasoning = (reasoning ?? '') + part.text;
      if (part.redacted !== undefined) thinkingBlocks.push({ type: 'redacted_thinking', data: part.redacted });
      else if (part.signature) thinkingBlocks.push({ type: 'thinking', thinking: part.text, signature: part.signature });
    }
  }
  const content = text !== undefined && text.length > 0 ? text : toolCalls.length > 0 ? null : (text ?? '');
  const message: OpenAIChatCompletion['choices'][number]['message'] = { role: 'assistant', content, refusal: null };
  if (reasoning !== undefined) message.reasoning_content = reasoning;
  if (thinkingBlocks.length > 0) message.thinking_blocks = thinkingBlocks;
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  return message;
}
