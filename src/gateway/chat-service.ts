/**
 * Runs one chat call through the lifecycle. A channel that speaks the client's dialect gets
 * the client's request as it came (pass-through, native features intact); any other gets the
 * canonical form, parsed only then — so a request that failover takes from a pass-through
 * channel to a translating one is parsed at that point. The call ends when the answer is
 * complete: at once for a whole response, when the stream or the relayed body ends otherwise;
 * either way its usage is journaled before the client gets the answer's last bytes.
 */
import { countPromptTokens } from '../core/count-prompt-tokens.js';
import { GatewayError } from '../core/errors.js';
import { withFields } from '../core/with-fields.js';
import { chatRequestNeeds, inputTokensOfBody, type RequestNeedsSource } from '../routing/request-needs.js';
import type { Dialect } from '../core/operation.js';
import type { TapResult } from '../core/passthrough.js';
import type { Provider } from '../providers/types.js';
import { type Call, type CallLifecycle, modelNotFound } from './call-lifecycle.js';
import { checkDocumentLimits, checkPeekedDocuments } from './check-document-limits.js';
import type { ChatCall, ChatOutcome } from './contract.js';
import { meterChatStream } from './meter-chat-stream.js';
import { usageOfCutAnswer } from './usage-of-cut-answer.js';

interface ChatSettings {
  maxDocumentBytes: number;
  /** Whether pass-through answers name the public model id instead of the upstream's name. */
  publicModelNames: boolean;
}

export class ChatService {
  constructor(
    private readonly lifecycle: CallLifecycle,
    private readonly settings: ChatSettings,
  ) {}

  async chat(chatCall: ChatCall): Promise<ChatOutcome> {
    if (chatCall.documents) checkPeekedDocuments(chatCall.documents, this.settings.maxDocumentBytes);
    else checkDocumentLimits(chatCall.canonical(), this.settings.maxDocumentBytes);
    const estimateInput = () => countPromptTokens(chatCall.canonical());
    // Read by admission only when a tokens or budget rule applies: a call without one is never tokenized here.
    const estimate = { inputTokens: estimateInput, outputCap: () => chatCall.canonical().maxTokens };
    const call = await this.lifecycle.admit(withFields(chatCall, { operation: 'chat' as const, estimate }));
    // Once per call: the relay's end (a stream's last bytes wait for it) or its usage promise (a stream cut short).
    let relayEnded: Promise<void> | undefined;
    const endRelay = (tap: TapResult): Promise<void> => (relayEnded ??= endRelayed(call, tap, estimateInput));
    const { signal } = chatCall;
    const errorEvent = chatCall.raw?.errorEvent;
    // A relayed stream the gateway ends itself says why in its dialect; one the client or the upstream broke off is cut.
    const cutEvent = (): string | undefined => (errorEvent && signal.reason instanceof GatewayError ? errorEvent(signal.reason) : undefined);
    const outcome = await call.attempt(
      async (channel, attempt, route): Promise<ChatOutcome> => {
        const chat = channel.provider.chat;
        if (!chat) throw modelNotFound(chatCall.model);
        const raw = chatCall.raw;
        if (raw && chat.passthrough && relays(channel.provider, raw.dialect) && (chat.relaysOn?.(raw.dialect, attempt.channel) ?? true)) {
          route.passthrough = true;
          const relayed = withFields(raw, { model: chatCall.model, publicModel: this.settings.publicModelNames, beforeEnd: endRelay, cutEvent });
          return { kind: 'passthrough', response: await chat.passthrough(relayed, attempt), route };
        }
        const request = chatCall.canonical();
        if (chatCall.documents) checkDocumentLimits(request, this.settings.maxDocumentBytes);
        if (request.stream) return { kind: 'stream', events: await chat.chatStream(request, attempt), route };
        const response = await chat.chat(request, attempt);
        response.model = chatCall.model;
        return { kind: 'response', response, route };
      },
      { needs: needsOf(chatCall) },
    );
    switch (outcome.kind) {
      case 'response':
        await call.settle(outcome.response.usage);
        return outcome;
      case 'stream':
        return withFields(outcome, { events: meterChatStream(outcome.events, call, { model: chatCall.model, estimateInput }) });
      case 'passthrough':
        // A JSON answer is whole: its usage is journaled before it is sent. One relayed in pieces
        // (a stream, or a JSON answer too large to hold) ends with its body, and its client sees
        // bytes before that: the call's open line is journaled first.
        if (Buffer.isBuffer(outcome.response.body)) await outcome.response.usage.then(endRelay);
        else {
          void outcome.response.usage.then(endRelay);
          await call.opened();
        }
        return outcome;
    }
  }
}

/** Whether the provider relays this client dialect untranslated. */
function relays(provider: Provider, dialect: Dialect): boolean {
  return provider.dialect === dialect || (provider.alsoRelays?.includes(dialect) ?? false);
}

/** Ends a pass-through call when its relay is over: as reported, or billed for what was produced when cut short. */
async function endRelayed(call: Call, tap: TapResult, estimateInput: () => number): Promise<void> {
  const cutBy = call.abortOutcome();
  if (tap.completed && !cutBy) {
    await call.settle(tap.usage);
    return;
  }
  const usage = await usageOfCutAnswer({ reported: tap.usage, producedText: tap.producedText, estimateInput }).catch(() => tap.usage);
  await call.finish(cutBy ?? 'upstream', usage);
}

/**
 * What the request needs of a model: its body's bound at no cost, its canonical form read only
 * when routing depends on it; a request the gateway cannot parse (a pass-through's native fields)
 * is not filtered.
 */
function needsOf(chatCall: ChatCall): RequestNeedsSource {
  return {
    inputTokensAtMost: chatCall.bodyBytes === undefined ? undefined : inputTokensOfBody(chatCall.bodyBytes),
    read: () => {
      try {
        return chatRequestNeeds(chatCall.canonical());
      } catch {
        return undefined;
      }
    },
  };
}
