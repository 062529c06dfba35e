/**
 * Runs one chat call: checks the key may use the model, orders the channels, and tries them
 * until one answers. Failures before the first byte (connection errors, timeouts, 429, 5xx,
 * refused channel credentials) move on to the next channel; anything after the first byte is
 * the client's to see. Same-dialect calls pass through untranslated. Usage is queued for the
 * ledger when the answer is complete.
 */
import type { ChatEvent } from '../core/chat.js';
import { GatewayError, toGatewayError } from '../core/errors.js';
import type { Usage } from '../core/usage.js';
import { costOf } from '../ledger/pricing.js';
import type { UsageRecorder } from '../ledger/usage-recorder.js';
import type { Attempt } from '../providers/types.js';
import type { ChatCall, ChatOutcome, RouteInfo } from '../surfaces/types.js';
import type { Catalog } from './catalog.js';
import type { ChannelRegistry, RuntimeChannel } from './channel-registry.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import { keyMayUse } from './key-may-use.js';
import { orderAttempts } from './order-attempts.js';

export interface ChatServiceDeps {
  registry: ChannelRegistry;
  breaker: CircuitBreaker;
  catalog: Catalog;
  recorder: UsageRecorder;
  maxAttempts: number;
}

export function modelNotFound(model: string): GatewayError {
  return new GatewayError('not_found', `The model \`${model}\` does not exist or no channel serves it.`, {
    code: 'model_not_found',
    param: 'model',
  });
}

export class ChatService {
  constructor(private readonly deps: ChatServiceDeps) {}

  async chat(call: ChatCall): Promise<ChatOutcome> {
    const model = call.request.model;
    if (!keyMayUse(call.key, model)) {
      throw new GatewayError('permission', `This API key may not use the model \`${model}\`.`, { code: 'model_not_allowed', param: 'model' });
    }
    const candidates = this.deps.registry.candidates(model, 'chat');
    if (candidates.length === 0) throw modelNotFound(model);
    const plan = orderAttempts(candidates, this.deps.maxAttempts, (name) => this.deps.breaker.isOpen(name));
    const startedAt = performance.now();
    let lastError: GatewayError | undefined;
    for (let i = 0; i < plan.length; i++) {
      const channel = plan[i];
      const route: RouteInfo = {
        channel: channel.name,
        provider: channel.config.provider,
        simulated: channel.provider.simulated === true,
        upstreamModel: channel.upstreamModel(model),
        attempts: i + 1,
        passthrough: false,
      };
      try {
        const outcome = await this.attempt(call, channel, route, startedAt);
        this.deps.breaker.success(channel.name);
        return outcome;
      } catch (error) {
        const gatewayError = toGatewayError(error);
        if (call.signal.aborted || !gatewayError.retryable) {
          if (!call.signal.aborted) this.record(call, route, startedAt, undefined, gatewayError.kind);
          throw gatewayError;
        }
        this.deps.breaker.failure(channel.name);
        lastError = gatewayError;
      }
    }
    const final = lastError ?? new GatewayError('overloaded', 'no channel could serve the request');
    this.record(call, { channel: '-', provider: 'sandbox', simulated: false, upstreamModel: model, attempts: plan.length, passthrough: false }, startedAt, undefined, final.kind);
    throw final;
  }

  private async attempt(call: ChatCall, channel: RuntimeChannel, route: RouteInfo, startedAt: number): Promise<ChatOutcome> {
    const chat = channel.provider.chat;
    if (!chat) throw modelNotFound(call.request.model);
    this.deps.breaker.beginAttempt(channel.name);
    const attempt: Attempt = { channel: channel.config, upstreamModel: route.upstreamModel, signal: call.signal, requestId: call.requestId };

    if (call.raw && chat.passthrough && channel.provider.dialect === call.raw.dialect) {
      route.passthrough = true;
      const response = await chat.passthrough(call.raw, attempt);
      response.usage.then(
        (usage) => this.record(call, route, startedAt, usage, 'ok'),
        () => this.record(call, route, startedAt, undefined, 'upstream'),
      );
      return { kind: 'passthrough', response, route };
    }
    if (call.request.stream) {
      const events = await chat.chatStream(call.request, attempt);
      return { kind: 'stream', events: this.meter(call, route, startedAt, events), route };
    }
    const response = await chat.chat(call.request, attempt);
    response.model = call.request.model;
    this.record(call, route, startedAt, response.usage, 'ok');
    return { kind: 'response', response, route };
  }

  /** Relays stream events, naming the public model and recording usage when the stream ends. */
  private async *meter(call: ChatCall, route: RouteInfo, startedAt: number, events: AsyncIterable<ChatEvent>): AsyncGenerator<ChatEvent> {
    let usage: Usage | undefined;
    let outcome = 'client_closed';
    try {
      for await (const event of events) {
        if (event.type === 'start') event.model = call.request.model;
        else if (event.type === 'finish') {
          usage = event.usage;
          outcome = 'ok';
        } else if (event.type === 'error') outcome = event.error.kind;
        yield event;
      }
    } catch (error) {
      outcome = toGatewayError(error).kind;
      throw error;
    } finally {
      this.record(call, route, startedAt, usage, outcome);
    }
  }

  private record(call: ChatCall, route: RouteInfo, startedAt: number, usage: Usage | undefined, outcome: string): void {
    const entry = this.deps.catalog.get(call.request.model);
    this.deps.recorder.record({
      request_id: call.requestId,
      key_id: call.key.id,
      surface: call.surface,
      operation: 'chat',
      model: call.request.model,
      channel: route.channel,
      provider: route.provider,
      upstream_model: route.upstreamModel,
      outcome,
      stream: call.request.stream ? 1 : 0,
      input_tokens: usage?.inputTokens ?? 0,
      output_tokens: usage?.outputTokens ?? 0,
      cache_read_tokens: usage?.cacheReadTokens ?? 0,
      cache_write_tokens: usage?.cacheWriteTokens ?? 0,
      reasoning_tokens: usage?.reasoningTokens ?? 0,
      cost_usd: usage && !route.simulated ? costOf(entry?.price, usage) : 0,
      latency_ms: Math.round(performance.now() - startedAt),
      created_at: Date.now(),
    });
  }
}
