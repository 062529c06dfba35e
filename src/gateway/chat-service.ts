/**
 * Runs one chat call through the lifecycle. A channel that speaks the client's dialect gets
 * the client's request as it came (pass-through); any other gets the canonical form, parsed
 * only then. The call ends when the answer is complete: at once for a whole response, when
 * the stream or the relayed body ends otherwise.
 */
import { countPromptTokens } from '../core/count-prompt-tokens.js';
import type { ChatOutcome, ChatCall } from './contract.js';
import type { Call, CallLifecycle } from './call-lifecycle.js';
import { modelNotFound } from './call-lifecycle.js';
import { checkDocumentLimits, checkDocumentSizes } from './check-document-limits.js';
import { meterChatStream } from './meter-chat-stream.js';

export class ChatService {
  constructor(
    private readonly lifecycle: CallLifecycle,
    private readonly maxDocumentBytes: number,
  ) {}

  async chat(chatCall: ChatCall): Promise<ChatOutcome> {
    if (chatCall.documents) checkDocumentSizes(chatCall.documents, this.maxDocumentBytes);
    else checkDocumentLimits(chatCall.canonical(), this.maxDocumentBytes);
    const call = await this.lifecycle.admit({ ...chatCall, operation: 'chat' });
    const outcome = await call.attempt(async (channel, attempt, route): Promise<ChatOutcome> => {
      const chat = channel.provider.chat;
      if (!chat) throw modelNotFound(chatCall.model);
      const raw = chatCall.raw;
      if (raw && chat.passthrough && channel.provider.dialect === raw.dialect) {
        route.passthrough = true;
        return { kind: 'passthrough', response: await chat.passthrough(raw, attempt), route };
      }
      const request = chatCall.canonical();
      if (request.stream) return { kind: 'stream', events: await chat.chatStream(request, attempt), route };
      const response = await chat.chat(request, attempt);
      response.model = chatCall.model;
      return { kind: 'response', response, route };
    });
    return this.account(chatCall, call, outcome);
  }

  private async account(chatCall: ChatCall, call: Call, outcome: ChatOutcome): Promise<ChatOutcome> {
    switch (outcome.kind) {
      case 'response':
        await call.settle(outcome.response.usage);
        return outcome;
      case 'stream':
        return {
          ...outcome,
          events: meterChatStream(outcome.events, call, { model: chatCall.model, estimateInput: () => countPromptTokens(chatCall.canonical()) }),
        };
      case 'passthrough':
        outcome.response.usage.then(
          (usage) => (call.abortOutcome() ? call.finish(call.abortOutcome()!, usage) : call.settle(usage)),
          (error: unknown) => call.fail(error),
        );
        return outcome;
    }
  }
}
