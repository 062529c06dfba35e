/**
 * The one path every call takes: *admit* (the key may use the model, the model serves the
 * operation, then the admission hooks — where rate limits and budget reservations go) →
 * *attempt* (the channel plan, failover before the first byte, the circuit breaker) →
 * *end*, exactly once, as settled (with usage) or failed. The call's usage row is written at
 * the end and nowhere else (built by the ledger's `usageRow`); hooks see the attempt start, the
 * first byte and the end (metrics, traces, budget settlement).
 */
import { checkIdentifierText } from '../core/client-strings.js';
import { abortCall } from '../core/call-abort.js';
import type { CallClock } from '../core/call-clock.js';
import { type ErrorType, errorTypeOfOutcome } from '../core/error-type.js';
import { GatewayError, toGatewayError } from '../core/errors.js';
import { refusePathLikeModelId } from '../core/model-id-path.js';
import type { Operation } from '../core/operation.js';
import type { RouteInfo } from '../core/route.js';
import type { Usage } from '../core/usage.js';
import { costOfCall } from '../ledger/pricing.js';
import type { UsageRecorder } from '../ledger/usage-recorder.js';
import { type CallEstimate, LimitRefusal } from '../limits/limits-service.js';
import { usageRow } from '../ledger/usage-row.js';
import type { Catalog } from '../routing/catalog.js';
import type { ChannelRegistry, RuntimeChannel } from '../routing/channel-registry.js';
import type { CircuitBreaker, CircuitStateName } from '../routing/circuit-breaker.js';
import { fitChannels } from '../routing/fit-channels.js';
import type { RequestNeedsSource } from '../routing/request-needs.js';
import { keyMayUse } from '../routing/key-may-use.js';
import { orderAttempts } from '../routing/order-attempts.js';
import { type AttemptFn, runAttempts } from '../routing/run-attempts.js';
import type { CallOrigin } from './contract.js';

/** What one call is: who asks, through which surface, for which model and operation. */
export interface CallSubject extends CallOrigin {
  model: string;
  operation: Operation;
  stream: boolean;
  /** How big the call can be, read by admission only when a tokens or budget rule applies. */
  estimate?: CallEstimate;
  /** A task submit: its limits and budget are held by the task (its id, its price, until its deadline). */
  taskReservation?: { id: string; amountNusd: number; leaseMs: number };
}

/** How a call ended, as hooks and the ledger see it. */
export interface CallEnding {
  /** `ok`, `client_closed`, `interrupted`, or the kind of the error that ended it. */
  outcome: string;
  usage?: Usage;
  /** Priced units other than tokens (images, seconds of video). */
  units: number;
  error?: GatewayError;
  /** Whose fault the failure was (`core/error-type.ts`); absent for a success. */
  errorType?: ErrorType;
  /** The channel that answered or was tried last; absent when no channel was tried. */
  route?: RouteInfo;
  /** What the call cost, in nUSD (`ledger/money.ts`). */
  costNusd: number;
  /** A real upstream answered for a model without a catalog price: `costNusd` is 0 for want of one (metrics count these). */
  unpriced?: boolean;
  latencyMs: number;
}

/** Extension points of the lifecycle; every member is optional. */
export interface LifecycleHooks {
  /** Before any attempt; throw a GatewayError (e.g. `rate_limit`) to refuse the call. */
  admit?(call: Call): void | Promise<void>;
  /** May return headers the attempt's upstream requests carry (the trace context of the attempt's span). */
  // biome-ignore lint/suspicious/noConfusingVoidType: hooks that only observe the attempt (metrics) return nothing
  attemptStart?(call: Call, route: RouteInfo): Readonly<Record<string, string>> | undefined | void;
  /** An attempt ended: answered (no error) or failed (the call may fail over to the next route). */
  attemptEnd?(call: Call, route: RouteInfo, error?: GatewayError): void;
  /** The upstream answered (for a stream: it accepted the request; events follow). */
  firstByte?(call: Call, route: RouteInfo): void;
  /** A stream's first content (text, thinking or a tool call's arguments) reached the gateway. */
  firstToken?(call: Call): void;
  /** Exactly once for every admitted call. */
  end?(call: Call, ending: CallEnding): void;
}

interface AttemptOptions {
  /** Narrows the channels tried (e.g. to those whose provider runs the operation as a task). */
  accepts?(channel: RuntimeChannel): boolean;
  /**
   * What the request needs of a channel's model (tools, images, PDFs, JSON schema, context): channels whose catalog
   * model lacks it are left out; when none is left the call is refused naming what is missing,
   * before any upstream is called. The request is read only when a decision depends on it
   * (`routing/fit-channels.ts`); read as undefined (a request the gateway cannot parse): no filter.
   */
  needs?: RequestNeedsSource;
}

interface LifecycleDeps {
  registry: ChannelRegistry;
  breaker: CircuitBreaker;
  catalog: Catalog;
  recorder: UsageRecorder;
  maxAttempts: number;
  hooks?: LifecycleHooks[];
}

export function modelNotFound(model: string): GatewayError {
  return new GatewayError('not_found', `The model \`${model}\` does not exist or no channel serves it.`, {
    code: 'model_not_found',
    param: 'model',
  });
}

/** No channel's model can take the request: what each lacks, once per distinct answer. */
export function capabilityMissing(model: string, missing: ReadonlyMap<string, string[]>): GatewayError {
  const lacks = [...new Set([...missing.values()].map((list) => list.join(', ')))];
  const said = lacks.length === 1 ? lacks[0] : lacks.map((list, i) => `channel ${i + 1}: ${list}`).join('; ');
  return new GatewayError('invalid_request', `No channel serving the model \`${model}\` supports what this request needs; missing: ${said}.`, {
    code: 'model_capability_missing',
    param: 'model',
  });
}

export class CallLifecycle {
  private readonly hooks: LifecycleHooks[];
  private readonly inFlight = new Set<Call>();

  constructor(private readonly deps: LifecycleDeps) {
    this.hooks = deps.hooks ?? [];
  }

  /** The circuit breaker's view of a channel, for the admin API. */
  circuit(channel: string): CircuitStateName {
    return this.deps.breaker.state(channel);
  }

  /** The circuit breaker itself, for the channel prober (a probe's verdict counts like a call's). */
  get breaker(): CircuitBreaker {
    return this.deps.breaker;
  }

  /** Adds hooks (rate limits, budgets, metrics); they run in the order added. */
  use(hooks: LifecycleHooks): void {
    this.hooks.push(hooks);
  }

  /**
   * Checks what needs no upstream: the model id is a plain name (before key scopes match it), the
   * key may use the model, and the model exists and serves the operation. Throws `permission`,
   * `not_found` or `invalid_request`.
   */
  checkAccess(subject: Pick<CallSubject, 'key' | 'model' | 'operation'>): void {
    const { key, model, operation } = subject;
    // Refused before anything stores, echoes or matches it: PostgreSQL cannot hold U+0000, and no model id has a control character.
    checkIdentifierText(model, 'model');
    refusePathLikeModelId(model);
    if (!keyMayUse(key, model)) {
      throw new GatewayError('permission', `This API key may not use the model \`${model}\`.`, { code: 'model_not_allowed', param: 'model' });
    }
    const entry = this.deps.catalog.get(model);
    if (entry && !entry.operations.includes(operation)) {
      throw new GatewayError(
        'invalid_request',
        `The model \`${model}\` does not support ${describeOperation(operation)}; it serves ${entry.operations.map(describeOperation).join(', ')}.`,
        { code: 'model_not_supported', param: 'model' },
      );
    }
    if (!this.deps.registry.serves(model, operation)) throw modelNotFound(model);
  }

  /** Admits a call, or throws the reason it may not run. */
  async admit(subject: CallSubject): Promise<Call> {
    this.checkAccess(subject);
    const call = new Call(subject, this.deps, this.hooks, this.inFlight);
    for (const hook of this.hooks) {
      if (!hook.admit) continue;
      try {
        await hook.admit(call);
      } catch (error) {
        call.fail(error);
        throw toGatewayError(error);
      }
    }
    this.inFlight.add(call);
    return call;
  }

  /** Calls admitted and not yet ended. */
  get active(): number {
    return this.inFlight.size;
  }

  /**
   * Ends the calls in flight that `reasonFor` gives a reason for (a key revoked a moment ago)
   * through their abort signal, as the drain deadline does: each ends on its normal error path,
   * billed for what it produced. Returns how many were cut.
   */
  cut(reasonFor: (call: Call) => GatewayError | undefined): number {
    let cut = 0;
    for (const call of this.inFlight) {
      const reason = reasonFor(call);
      if (reason !== undefined && abortCall(call.subject.signal, reason)) cut++;
    }
    return cut;
  }
}

export class Call {
  readonly startedAt = performance.now();
  /** `performance.now()` when the upstream answered (see `firstByte`), and at a stream's first content. */
  firstByteAt?: number;
  firstTokenAt?: number;
  /** The channel tried last (the one that answered, once `attempt` resolved). */
  route?: RouteInfo;
  /** Its upstream time, kept by the metrics' attempt hooks when they are installed (shared with its request's). */
  clock?: CallClock = undefined;
  private ended?: Promise<void>;
  private begun?: Promise<void>;

  constructor(
    readonly subject: CallSubject,
    private readonly deps: LifecycleDeps,
    private readonly hooks: readonly LifecycleHooks[],
    private readonly inFlight: Set<Call>,
  ) {}

  get isEnded(): boolean {
    return this.ended !== undefined;
  }

  /**
   * Tries the planned channels until one answers. When none does, the call ends as failed and
   * the error is thrown; on success the caller ends it with `settle` or `fail`.
   */
  async attempt<T>(attemptFn: AttemptFn<T>, options: AttemptOptions = {}): Promise<T> {
    const { subject, deps } = this;
    try {
      const serving = deps.registry.current().candidates(subject.model, subject.operation);
      let candidates: readonly RuntimeChannel[] = options.accepts ? serving.filter(options.accepts) : serving;
      if (candidates.length === 0) throw modelNotFound(subject.model);
      if (options.needs) {
        const { fit, missing } = await fitChannels(candidates, subject.model, deps.catalog, options.needs);
        if (fit.length === 0) throw capabilityMissing(subject.model, missing);
        candidates = fit;
      }
      // A whole answer reaches the client only after its row is journaled: its open line can wait (see begin).
      this.begun = deps.recorder.begin(
        {
          request_id: subject.requestId,
          key_id: subject.key.id,
          surface: subject.surface,
          operation: subject.operation,
          model: subject.model,
          stream: subject.stream,
          created_at: Date.now(),
          account_id: subject.key.accountId,
        },
        { lazily: !subject.stream },
      );
      const plan = orderAttempts(candidates, deps.maxAttempts, (name) => deps.breaker.isOpen(name));
      const value = await runAttempts(
        plan,
        {
          breaker: deps.breaker,
          model: subject.model,
          requestId: subject.requestId,
          signal: subject.signal,
          maxOutputTokens: deps.catalog.get(subject.model)?.outputTokenLimit,
          onAttempt: (route) => {
            this.route = route;
            let headers: Readonly<Record<string, string>> | undefined;
            for (const hook of this.hooks) {
              const added = hook.attemptStart?.(this, route);
              if (added) headers = headers ? { ...headers, ...added } : added;
            }
            return headers;
          },
          onAttemptEnd: (route, error) => {
            for (const hook of this.hooks) hook.attemptEnd?.(this, route, error);
          },
        },
        attemptFn,
      );
      // Nothing of a stream reaches the client before the call's open line is journaled (a kill -9 then closes it as interrupted).
      if (subject.stream) await this.begun;
      this.firstByteAt = performance.now();
      if (this.route) for (const hook of this.hooks) hook.firstByte?.(this, this.route);
      return value;
    } catch (error) {
      this.fail(error);
      throw error;
    }
  }

  /**
   * Resolves once the call's open line is in the journal. A stream's `attempt` waits for it; a
   * whole answer that is relayed in pieces after all (too large to hold) must wait for it too.
   */
  opened(): Promise<void> {
    if (!this.begun) return Promise.resolve();
    // A whole answer's open line waits for the journal's next write: write it now.
    if (!this.subject.stream) this.deps.recorder.flushJournalSync();
    return this.begun;
  }

  /**
   * Ends the call as completed, with what it used. Resolves once the usage is journaled:
   * callers wait for it before the answer's last bytes go out, so a crash cannot lose it.
   */
  settle(usage: Usage | undefined, units = 0): Promise<void> {
    return this.finish('ok', usage, units);
  }

  /**
   * Ends the call as failed. A call whose client went away ends as `client_closed`, billed
   * for what was produced (`usage`), whatever error the abort caused downstream.
   */
  fail(error: unknown, usage?: Usage): Promise<void> {
    const gatewayError = toGatewayError(error);
    return this.finish(this.abortOutcome() ?? gatewayError.kind, usage, 0, gatewayError);
  }

  /** Why the call's signal was aborted: the gateway's own reason (drain deadline, a revoked key), else the client left. */
  abortOutcome(): string | undefined {
    const { signal } = this.subject;
    if (!signal.aborted) return undefined;
    return signal.reason instanceof GatewayError ? signal.reason.kind : 'client_closed';
  }

  /**
   * Whose fault an ending was. A call the gateway cut itself (the drain deadline, a revoked key)
   * is typed by the cut's reason, not by the error the abort caused downstream (a `client_closed`).
   */
  private errorTypeOf(outcome: string, error: GatewayError | undefined): ErrorType | undefined {
    if (outcome === 'ok') return undefined;
    const { signal } = this.subject;
    if (signal.aborted && signal.reason instanceof GatewayError) return signal.reason.errorType;
    return errorTypeOfOutcome(outcome, error);
  }

  /** Marks a stream's first content, once. */
  markFirstToken(): void {
    if (this.firstTokenAt !== undefined) return;
    this.firstTokenAt = performance.now();
    for (const hook of this.hooks) hook.firstToken?.(this);
  }

  /** Ends the call with an explicit outcome (e.g. `client_closed` for an abandoned stream). */
  finish(outcome: string, usage: Usage | undefined, units = 0, error?: GatewayError): Promise<void> {
    if (this.ended) return this.ended;
    this.ended = Promise.resolve();
    this.inFlight.delete(this);
    const { subject, deps, route } = this;
    const price = deps.catalog.priceOf(subject.model);
    const billable = route !== undefined && !route.simulated;
    const costNusd = billable ? costOfCall(price, usage, units) : 0;
    const unpriced = billable && price === undefined;
    const latencyMs = Math.round(performance.now() - this.startedAt);
    // A call refused by a limit or a budget has no channel, and a row all the same: the usage views count refusals.
    const refusal = error instanceof LimitRefusal ? error.label : undefined;
    const errorType = this.errorTypeOf(outcome, error);
    // The request's failure, for its access log line (a stream's error event leaves the status a 200).
    if (errorType !== undefined && subject.http) subject.http.errorType = errorType;
    if (route || refusal !== undefined) {
      this.ended = deps.recorder.record(
        usageRow({
          requestId: subject.requestId,
          keyId: subject.key.id,
          accountId: subject.key.accountId,
          surface: subject.surface,
          operation: subject.operation,
          model: subject.model,
          stream: subject.stream,
          route,
          outcome,
          usage,
          units,
          costNusd,
          latencyMs,
          createdAt: Date.now(),
          refusal,
          errorType,
          unpriced,
        }),
      );
    }
    let ending: CallEnding | undefined;
    for (const hook of this.hooks) {
      if (!hook.end) continue;
      ending ??= { outcome, usage, units, error, errorType, route, costNusd, unpriced, latencyMs };
      hook.end(this, ending);
    }
    return this.ended;
  }
}

const OPERATION_NAMES: Record<Operation, string> = {
  chat: 'chat (text generation)',
  embed: 'embeddings',
  'image.generate': 'image generation',
  'image.edit': 'image edits',
  'image.remix': 'image remixes',
  'image.blend': 'image blends',
  'image.imagine': 'image tasks (imagine)',
  'image.describe': 'image descriptions',
  'image.action': 'image task actions (upscale, variation, reroll)',
  'video.generate': 'video generation',
  'task.get': 'task lookups',
};

function describeOperation(operation: Operation): string {
  return OPERATION_NAMES[operation];
}
