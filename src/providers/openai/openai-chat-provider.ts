/** The chat operation over the OpenAI dialect, for OpenAI itself and OpenAI-compatible servers. */
import type { ChatEvent, ChatRequest, ChatResponse } from '../../core/chat.js';
import type { Operation } from '../../core/operation.js';
import type { OpenAIChatCompletion } from '../../core/wire/openai-chat-types.js';
import { instructionFallbackWarning, nativeStructuredOutput } from '../shared/structured-output.js';
import { refuseSeveralChoices } from '../shared/check-choice-count.js';
import { checkStopSequences, OPENAI_STOP_RULES } from '../shared/check-stop-sequences.js';
import { readJson, type UpstreamResponse } from '../shared/upstream-http.js';
import type { Attempt, ChatProvider, Provider } from '../types.js';
import { createOpenAIImages } from './images/index.js';
import { decodeOpenAIChatStream } from './decode-openai-chat-stream.js';
import { fromOpenAIChatResponse } from './from-openai-chat-response.js';
import { createOpenAIEmbed } from './openai-embed.js';
import { openAIPassthrough } from './openai-passthrough.js';
import { postChatCompletions, wantsStreamUsage } from './openai-upstream.js';
import { TOOL_ERROR_PREFIX, toOpenAIChatRequest } from './to-openai-chat-request.js';

export type OpenAIProviderName = 'openai' | 'openai-compatible';

// OpenAI-compatible servers rarely serve images; a channel that does can use provider `openai`.
export const OPENAI_OPERATIONS: readonly Operation[] = ['chat', 'embed', 'image.generate', 'image.edit'];
export const OPENAI_COMPATIBLE_OPERATIONS: readonly Operation[] = ['chat', 'embed'];

function warnOfToolErrors(request: ChatRequest, attempt: Attempt): void {
  const failed = request.messages.some((message) => message.content.some((part) => part.type === 'tool_result' && part.isError === true));
  if (failed)
    attempt.warn?.(`is_error: OpenAI tool messages have no error flag; failed tool results were sent as text starting with "${TOOL_ERROR_PREFIX.trim()}"`);
}

export function createOpenAIProvider(name: OpenAIProviderName): Provider {
  const maxTokensField = name === 'openai' ? 'max_completion_tokens' : 'max_tokens';

  const send = async (request: ChatRequest, attempt: Attempt): Promise<UpstreamResponse> => {
    const { channel } = attempt;
    // OpenAI-compatible servers document no common limit; OpenAI's is 4.
    if (name === 'openai') checkStopSequences(request, OPENAI_STOP_RULES);
    warnOfToolErrors(request, attempt);
    // Translated answers carry one choice (an OpenAI client asking for several is passed through).
    refuseSeveralChoices(request, name === 'openai' ? 'OpenAI' : 'OpenAI-compatible');
    const body = toOpenAIChatRequest(request, {
      model: attempt.upstreamModel,
      maxTokensField,
      streamUsage: wantsStreamUsage(channel),
      structuredOutput: nativeStructuredOutput(channel),
      fallbackWarning: instructionFallbackWarning(channel),
      warn: attempt.warn,
    });
    return postChatCompletions(body, attempt);
  };

  const chat: ChatProvider = {
    async chat(request: ChatRequest, attempt: Attempt): Promise<ChatResponse> {
      const response = await send({ ...request, stream: false }, attempt);
      return fromOpenAIChatResponse(await readJson<OpenAIChatCompletion>(response.body));
    },
    async chatStream(request: ChatRequest, attempt: Attempt): Promise<AsyncIterable<ChatEvent>> {
      const response = await send({ ...request, stream: true }, attempt);
      return decodeOpenAIChatStream(response.body, { model: attempt.upstreamModel });
    },
    passthrough: openAIPassthrough,
  };

  const operations = name === 'openai' ? OPENAI_OPERATIONS : OPENAI_COMPATIBLE_OPERATIONS;
  return {
    name,
    dialect: 'openai',
    operations: new Set(operations),
    chat,
    embed: createOpenAIEmbed(),
    images: name === 'openai' ? createOpenAIImages() : undefined,
  };
}
