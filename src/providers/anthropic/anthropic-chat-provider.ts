/**
 * The Anthropic Messages API as a ChatProvider: translated chat and streaming, and the
 * same-dialect pass-through.
 */
import type { ChatEvent, ChatRequest, ChatResponse } from '../../core/chat.js';
import type { AnthropicMessagesResponse } from '../../core/wire/anthropic-types.js';
import { refuseSeveralChoices } from '../shared/check-choice-count.js';
import { ANTHROPIC_STOP_RULES, checkStopSequences } from '../shared/check-stop-sequences.js';
import { readErrorText, readJson, sendUpstream, type UpstreamResponse } from '../shared/upstream-http.js';
import type { Attempt, ChatProvider } from '../types.js';
import { anthropicPassthrough } from './anthropic-passthrough.js';
import { anthropicHeaders, anthropicMessagesUrl } from './anthropic-request.js';
import { decodeAnthropicStream } from './decode-anthropic-stream.js';
import { fromAnthropicResponse } from './from-anthropic-response.js';
import { mapAnthropicError } from './map-anthropic-error.js';
import { toAnthropicMessages } from './to-anthropic-messages.js';

async function send(request: ChatRequest, attempt: Attempt, stream: boolean): Promise<UpstreamResponse> {
  checkStopSequences(request, ANTHROPIC_STOP_RULES);
  refuseSeveralChoices(request, 'Anthropic');
  warnOfLogprobs(request, attempt);
  const response = await sendUpstream({
    url: anthropicMessagesUrl(attempt),
    headers: anthropicHeaders(attempt),
    body: JSON.stringify(toAnthropicMessages(request, attempt, stream)),
    signal: attempt.signal,
    timeoutMs: attempt.channel.timeoutMs,
  });
  if (response.status < 200 || response.status >= 300) {
    throw mapAnthropicError(response.status, await readErrorText(response.body), response.headers);
  }
  return response;
}

/** Claude returns no token log probabilities; the answer comes without them. */
function warnOfLogprobs(request: ChatRequest, attempt: Attempt): void {
  if (request.logprobs === true) attempt.warn?.('logprobs: not supported by Anthropic; the answer has no log probabilities');
  if (request.topLogprobs !== undefined && request.topLogprobs > 0) attempt.warn?.('top_logprobs: not supported by Anthropic; ignored');
}

export function createAnthropicChatProvider(): ChatProvider {
  return {
    async chat(request: ChatRequest, attempt: Attempt): Promise<ChatResponse> {
      const response = await send(request, attempt, false);
      return fromAnthropicResponse(await readJson<AnthropicMessagesResponse>(response.body));
    },
    async chatStream(request: ChatRequest, attempt: Attempt): Promise<AsyncIterable<ChatEvent>> {
      const response = await send(request, attempt, true);
      return decodeAnthropicStream(response.body);
    },
    passthrough: anthropicPassthrough,
  };
}
