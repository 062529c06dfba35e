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
import { dropPlaceholderCalls, dropPlaceholderCallsInStream } from './drop-placeholder-calls.js';
import { type ConverseAnswer, fromConverse } from './from-converse.js';
import { mapBedrockError } from './map-bedrock-error.js';
import { NO_TOOL_PLACEHOLDER, toConverse } from './to-converse.js';

/** Converse's documented tool name pattern `^[a-zA-Z0-9_-]{1,64}$`; at most four stop sequences for most models is left to Bedrock. */
const CONVERSE_LIMITS: TargetLimits = {
  stop: { upstream: 'Bedrock' },
  toolNames: { maxLength: 64, allowed: /[a-zA-Z0-9_-]/ },
};

interface Sent {
  response: UpstreamResponse;
  names: ToolNameMap;
  /** Only the placeholder tool was declared: a call of it is dropped from the answer. */
  placeholder: boolean;
}

async function send(original: ChatRequest, attempt: Attempt, stream: boolean): Promise<Sent> {
  const { request, names } = fitToTarget(original, attempt, CONVERSE_LIMITS);
  refuseSeveralChoices(request, 'Bedrock');
  if (request.logprobs === true) attempt.warn?.('logprobs: not supported by Bedrock Converse; the answer has no log probabilities');
  const converse = toConverse(request, attempt);
  const placeholder = (converse.toolConfig as { tools?: unknown[] } | undefined)?.tools?.[0] === NO_TOOL_PLACEHOLDER;
  const body = JSON.stringify(converse);
  const response = await postBedrock(
    attempt,
    stream ? 'converse-stream' : 'converse',
    body,
    stream ? 'application/vnd.amazon.eventstream' : 'application/json',
  );
  if (response.status < 200 || response.status >= 300) {
    throw mapBedrockError(response.status, await readErrorText(response.body), response.headers);
  }
  return { response, names, placeholder };
}

const warn =
  (attempt: Attempt) =>
  (message: string): void =>
    attempt.warn?.(message);

export function createConverseChatProvider(): ChatProvider {
  return {
    async chat(request: ChatRequest, attempt: Attempt): Promise<ChatResponse> {
      const { response, names, placeholder } = await send(request, attempt, false);
      const answer = fromConverse(await readJson<ConverseAnswer>(response.body), request.model, headerValue(response.headers, 'x-amzn-requestid'));
      return restoreToolNames(placeholder ? dropPlaceholderCalls(answer, warn(attempt)) : answer, names);
    },
    async chatStream(request: ChatRequest, attempt: Attempt): Promise<AsyncIterable<ChatEvent>> {
      const { response, names, placeholder } = await send(request, attempt, true);
      const events = decodeConverseStream(response.body, request.model, headerValue(response.headers, 'x-amzn-requestid'));
      return restoreToolNamesInStream(placeholder ? dropPlaceholderCallsInStream(events, warn(attempt)) : events, names);
    },
  };
}
