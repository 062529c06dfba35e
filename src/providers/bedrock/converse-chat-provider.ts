/**
 * Bedrock's Converse API as a ChatProvider: any Bedrock chat model (Claude, Llama, Mistral, Nova,
 * …) through `/converse` and `/converse-stream`, translated from and to the canonical types.
 */
import type { ChatEvent, ChatRequest, ChatResponse } from '../../core/chat.js';
import { refuseSeveralChoices } from '../shared/check-choice-count.js';
import { fitToTarget, type TargetLimits } from '../shared/fit-to-target.js';
import { restoreToolNames, restoreToolNamesInStream, type ToolNameMap } from '../shared/fit-tool-names.js';
import { headerValue, readErrorText, readJson, type UpstreamResponse } from '../shared/upstream-http.js';
import type { Attempt, ChatProvider } from '../types.js';
import { postBedrock } from './bedrock-target.js';
import { decodeConverseStream } from './decode-converse-stream.js';
import { type ConverseAnswer, fromConverse } from './from-converse.js';
import { mapBedrockError } from './map-bedrock-error.js';
import { toConverse } from './to-converse.js';

/** Converse's documented tool name pattern `^[a-zA-Z0-9_-]{1,64}$`; at most four stop sequences for most models is left to Bedrock. */
const CONVERSE_LIMITS: TargetLimits = {
  stop: { upstream: 'Bedrock' },
  toolNames: { maxLength: 64, allowed: /[a-zA-Z0-9_-]/ },
};

async function send(original: ChatRequest, attempt: Attempt, stream: boolean): Promise<{ response: UpstreamResponse; names: ToolNameMap }> {
  const { request, names } = fitToTarget(original, attempt, CONVERSE_LIMITS);
  refuseSeveralChoices(request, 'Bedrock');
  if (request.logprobs === true) attempt.warn?.('logprobs: not supported by Bedrock Converse; the answer has no log probabilities');
  const body = JSON.stringify(toConverse(request, attempt));
  const response = await postBedrock(
    attempt,
    stream ? 'converse-stream' : 'converse',
    body,
    stream ? 'application/vnd.amazon.eventstream' : 'application/json',
  );
  if (response.status < 200 || response.status >= 300) {
    throw mapBedrockError(response.status, await readErrorText(response.body), response.headers);
  }
  return { response, names };
}

export function createConverseChatProvider(): ChatProvider {
  return {
    async chat(request: ChatRequest, attempt: Attempt): Promise<ChatResponse> {
      const { response, names } = await send(request, attempt, false);
      const answer = await readJson<ConverseAnswer>(response.body);
      return restoreToolNames(fromConverse(answer, request.model, headerValue(response.headers, 'x-amzn-requestid')), names);
    },
    async chatStream(request: ChatRequest, attempt: Attempt): Promise<AsyncIterable<ChatEvent>> {
      const { response, names } = await send(request, attempt, true);
      return restoreToolNamesInStream(decodeConverseStream(response.body, request.model, headerValue(response.headers, 'x-amzn-requestid')), names);
    },
  };
}
