/**
 * The Anthropic Messages API as a ChatProvider: translated chat and streaming, and the
 * same-dialect pass-through.
 */
import type { ChatEvent, ChatRequest, ChatResponse } from '../../core/chat.js';
import type { AnthropicMessagesResponse } from '../../core/wire/anthropic-types.js';
import { refuseSeveralChoices } from '../shared/check-choice-count.js';
import { fitToTarget } from '../shared/fit-to-target.js';
import { restoreToolNames, restoreToolNamesInStream, type ToolNameMap } from '../shared/fit-tool-names.js';
import { readJson, type UpstreamResponse } from '../shared/upstream-http.js';
import type { Attempt, ChatProvider } from '../types.js';
import { ANTHROPIC_LIMITS } from './anthropic-limits.js';
import { anthropicPassthrough } from './anthropic-passthrough.js';
import { ANTHROPIC_API_ENDPOINT, type AnthropicEndpoint, postAnthropic } from './anthropic-request.js';
import { decodeAnthropicStream } from './decode-anthropic-stream.js';
import { fromAnthropicResponse } from './from-anthropic-response.js';
import { toAnthropicMessages } from './to-anthropic-messages.js';

async function send(
  endpoint: AnthropicEndpoint,
  original: ChatRequest,
  attempt: Attempt,
  stream: boolean,
): Promise<{ response: UpstreamResponse; names: ToolNameMap }> {
  const { request, names } = fitToTarget(original, attempt, ANTHROPIC_LIMITS);
  refuseSeveralChoices(request, 'Anthropic');
  warnOfLogprobs(request, attempt);
  const body = toAnthropicMessages(request, attempt, stream) as unknown as Record<string, unknown>;
  return { response: await postAnthropic(endpoint, attempt, body), names };
}

/** Claude returns no token log probabilities; the answer comes without them. */
function warnOfLogprobs(request: ChatRequest, attempt: Attempt): void {
  if (request.logprobs === true) attempt.warn?.('logprobs: not supported by Anthropic; the answer has no log probabilities');
  if (request.topLogprobs !== undefined && request.topLogprobs > 0) attempt.warn?.('top_logprobs: not supported by Anthropic; ignored');
}

export function createAnthropicChatProvider(endpoint: AnthropicEndpoint = ANTHROPIC_API_ENDPOINT): ChatProvider {
  return {
    async chat(request: ChatRequest, attempt: Attempt): Promise<ChatResponse> {
      const { response, names } = await send(endpoint, request, attempt, false);
      return restoreToolNames(fromAnthropicResponse(await readJson<AnthropicMessagesResponse>(response.body)), names);
    },
    async chatStream(request: ChatRequest, attempt: Attempt): Promise<AsyncIterable<ChatEvent>> {
      const { response, names } = await send(endpoint, request, attempt, true);
      return restoreToolNamesInStream(decodeAnthropicStream(response.body), names);
    },
    passthrough: (raw, attempt) => anthropicPassthrough(raw, attempt, endpoint),
  };
}
