/** The chat operation over the OpenAI dialect, shaped by the upstream's flavour (`openai-flavour.ts`). */
import type { ChatEvent, ChatRequest, ChatResponse } from '../../core/chat.js';
import type { OpenAIChatCompletion } from '../../core/wire/openai-chat-types.js';
import { instructionFallbackWarning, nativeStructuredOutput } from '../shared/structured-output.js';
import { refuseSeveralChoices } from '../shared/check-choice-count.js';
import { fitToTarget } from '../shared/fit-to-target.js';
import { restoreToolNames, restoreToolNamesInStream, type ToolNameMap } from '../shared/fit-tool-names.js';
import { readJson, type UpstreamResponse } from '../shared/upstream-http.js';
import type { Attempt, ChatProvider } from '../types.js';
import { decodeOpenAIChatStream } from './decode-openai-chat-stream.js';
import { fromOpenAIChatResponse } from './from-openai-chat-response.js';
import type { OpenAIFlavour } from './openai-flavour.js';
import { openAILimits } from './openai-limits.js';
import { openAIPassthrough } from './openai-passthrough.js';
import { openAIResponsesPassthrough } from './openai-responses-passthrough.js';
import { postChatCompletions, wantsStreamUsage } from './openai-upstream.js';
import { TOOL_ERROR_PREFIX, toOpenAIChatRequest } from './to-openai-chat-request.js';

function warnOfToolErrors(request: ChatRequest, attempt: Attempt): void {
  const failed = request.messages.some((message) => message.content.some((part) => part.type === 'tool_result' && part.isError === true));
  if (failed)
    attempt.warn?.(`is_error: OpenAI tool messages have no error flag; failed tool results were sent as text starting with "${TOOL_ERROR_PREFIX.trim()}"`);
}

export function createOpenAIChat(flavour: OpenAIFlavour): ChatProvider {
  const { maxTokensField, stopRules } = flavour;
  const limits = openAILimits(flavour);

  const send = async (original: ChatRequest, attempt: Attempt): Promise<{ response: UpstreamResponse; names: ToolNameMap }> => {
    const { channel } = attempt;
    const { request, names } = fitToTarget(original, attempt, limits);
    warnOfToolErrors(request, attempt);
    // Translated answers carry one choice (an OpenAI client asking for several is passed through).
    refuseSeveralChoices(request, stopRules.upstream);
    const body = toOpenAIChatRequest(request, {
      model: attempt.upstreamModel,
      maxTokensField,
      streamUsage: wantsStreamUsage(channel),
      structuredOutput: nativeStructuredOutput(channel),
      fallbackWarning: instructionFallbackWarning(channel),
      warn: attempt.warn,
    });
    return { response: await postChatCompletions(body, attempt, flavour), names };
  };

  return {
    async chat(request: ChatRequest, attempt: Attempt): Promise<ChatResponse> {
      const { response, names } = await send({ ...request, stream: false }, attempt);
      return restoreToolNames(fromOpenAIChatResponse(await readJson<OpenAIChatCompletion>(response.body)), names);
    },
    async chatStream(request: ChatRequest, attempt: Attempt): Promise<AsyncIterable<ChatEvent>> {
      const { response, names } = await send({ ...request, stream: true }, attempt);
      return restoreToolNamesInStream(decodeOpenAIChatStream(response.body, { model: attempt.upstreamModel }), names);
    },
    // Channel option `responsesApi: false`: the server behind this channel lacks `/responses`, so Responses requests are translated.
    relaysOn: (dialect, channel) => dialect !== 'responses' || channel.options.responsesApi !== false,
    passthrough: (raw, attempt) => (raw.dialect === 'responses' ? openAIResponsesPassthrough(raw, attempt, flavour) : openAIPassthrough(raw, attempt, flavour)),
  };
}
