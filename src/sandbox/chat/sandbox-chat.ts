import type { ChatEvent, ChatRequest } from '../../core/chat.js';
import { nowSeconds } from '../../core/ids.js';
import { refuseSeveralChoices } from '../../providers/shared/check-choice-count.js';
import type { Attempt, ChatProvider } from '../../providers/types.js';
import type { SandboxRuntimeSettings } from '../sandbox-settings.js';
import { throwIfInjectedFailure } from '../shared/injected-failure.js';
import { sleep } from '../shared/sleep.js';
import { buildSandboxAnswer, type SandboxAnswer } from './build-sandbox-answer.js';
import { readDocuments } from './read-documents.js';
import { seedChatRequest } from './seed-chat-request.js';
import { streamSandboxAnswer } from './stream-sandbox-answer.js';
import { toSandboxResponse } from './to-sandbox-response.js';
import { loadTokenizer } from '../shared/tokenizer.js';

/** Fails as configured, else reads the documents and builds the answer: all of it before the first byte. */
async function answerOrFail(request: ChatRequest, attempt: Attempt, settings: SandboxRuntimeSettings): Promise<SandboxAnswer> {
  refuseSeveralChoices(request, 'sandbox');
  await loadTokenizer();
  const seed = seedChatRequest(request);
  throwIfInjectedFailure(settings, seed.seed, attempt.channel.name, [request.model, attempt.upstreamModel]);
  return buildSandboxAnswer(request, seed, await readDocuments(request, attempt.signal));
}

/** The sandbox's chat: deterministic simulated answers, plain or streamed at the configured pace. */
export function createSandboxChat(settingsFor: (attempt: Attempt) => SandboxRuntimeSettings): ChatProvider {
  return {
    async chat(request, attempt) {
      const settings = settingsFor(attempt);
      const answer = await answerOrFail(request, attempt, settings);
      await sleep(settings.firstTokenDelayMs, attempt.signal);
      return toSandboxResponse(answer, request.model, nowSeconds());
    },
    async chatStream(request, attempt): Promise<AsyncIterable<ChatEvent>> {
      const settings = settingsFor(attempt);
      const answer = await answerOrFail(request, attempt, settings);
      return streamSandboxAnswer(answer, request.model, nowSeconds(), {
        tokensPerSecond: settings.tokensPerSecond,
        firstTokenDelayMs: settings.firstTokenDelayMs,
        failMidStream: settings.failMidStream,
        signal: attempt.signal,
      });
    },
  };
}
