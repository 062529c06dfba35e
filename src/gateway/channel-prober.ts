/**
 * Active upstream health: every channel whose `probe.enabled` is set is probed on its own timer
 * (its interval, jittered ±10 %, the first one at a random point of the first interval) with
 * the admin Test's request — the cheapest real call its provider allows — one probe at a time
 * per channel and at most `maxConcurrent` at once in this process. Each replica probes on its
 * own and keeps its own results (the circuit breaker is per process too).
 *
 * What a probe does to the channel:
 * - a pass closes the channel's circuit (the upstream answered a real request), and re-enables
 *   a channel the gateway itself disabled, when `probe.autoEnable` is set;
 * - a failure the attempt loop would fail over on (timeout, connection, 429, 5xx, refused
 *   credentials) counts against the circuit like a failed call;
 * - `AUTH_FAILURES_TO_DISABLE` refused credentials (`upstream.auth`) in a row, from probes or
 *   real calls, disable a stored channel whose `probe.autoEnable` is set (an operator who
 *   disabled a channel is never overruled: only the gateway's own switch-off is undone).
 *
 * It also counts every real attempt's outcome per channel (`hooks`, for the lifecycle) for the
 * error rate over five minutes. With no channel probed, it holds no timer.
 */
import type { Logger } from 'pino';
import type { ErrorType } from '../core/error-type.js';
import { toGatewayError } from '../core/errors.js';
import type { ChannelRegistry, ChannelSnapshot, RuntimeChannel } from '../routing/channel-registry.js';
import type { CircuitBreaker, CircuitStateName } from '../routing/circuit-breaker.js';
import type { ProbeSettings } from '../config/types.js';
import type { LifecycleHooks } from './call-lifecycle.js';
import { ChannelErrorWindow } from './channel-error-window.js';

/** Refused credentials in a row after which a channel with `probe.autoEnable` is disabled. */
export const AUTH_FAILURES_TO_DISABLE = 3;
const RESULTS_KEPT = 10;
const DEFAULT_MAX_CONCURRENT = 4;

/** What one probe found. `message` is free of the channel's credentials. */
export interface ProbeResult {
  ok: boolean;
  /** When it ended (ms since the epoch). */
  at: number;
  latencyMs: number;
  model?: string;
  status?: number;
  errorType?: ErrorType;
  message?: string;
}

/** What the injected probe returns: the admin Test's result (`admin/test-channel.ts`). */
export interface ProbeOutcome {
  ok: boolean;
  latencyMs: number;
  model: string;
  status?: number;
  message: string;
  errorType?: ErrorType;
  /** Whether the attempt loop would fail over on it (and count it against the circuit). */
  retryable?: boolean;
}

/** One channel's health, as the admin API shows it and a metrics collector reads it. */
export interface ChannelHealth {
  name: string;
  enabled: boolean;
  /** Disabled by the gateway after refused credentials (not by an operator). */
  autoDisabled: boolean;
  breaker: CircuitStateName;
  probe: ProbeSettings | null;
  /** The last probe's verdict; null before the first probe (or with probes off). */
  probeOk: boolean | null;
  lastProbeLatencyMs: number | null;
  lastProbeAt: number | null;
  /** Upstream errors / attempts over the last five minutes of real calls; null without calls. */
  errorRate5m: number | null;
  calls5m: number;
  errors5m: number;
  /** The last probes, newest first (at most 10). */
  recentProbes: ProbeResult[];
}

/** Turns the gateway's own switch of a stored channel; true when it changed (and was announced and audited). */
export type ChannelSwitch = (name: string, enabled: boolean, details: Record<string, unknown>) => Promise<boolean>;

interface ProberDeps {
  registry: ChannelRegistry;
  breaker: CircuitBreaker;
  probe: (channel: RuntimeChannel) => Promise<ProbeOutcome>;
  switchChannel: ChannelSwitch;
  logger: Logger;
  maxConcurrent?: number;
  /** Test-only: the time between probes, instead of the channel's `intervalSeconds`. */
  intervalMs?: number;
  now?: () => number;
  random?: () => number;
}

interface Schedule {
  intervalMs: number;
  timer?: NodeJS.Timeout;
}

export class ChannelProber {
  private readonly schedules = new Map<string, Schedule>();
  private readonly results = new Map<string, ProbeResult[]>();
  private readonly authFailures = new Map<string, number>();
  private readonly queue = new Set<string>();
  private readonly errors: ChannelErrorWindow;
  private readonly now: () => number;
  private readonly random: () => number;
  private running = 0;
  private stopped = false;
  private unsubscribe?: () => void;

  /** For the call lifecycle: every real attempt counts toward its channel's error rate. */
  readonly hooks: LifecycleHooks = {
    attemptEnd: (_call, route, error) => {
      this.errors.record(route.channel, error);
      if (!error) {
        if (this.authFailures.size > 0) this.authFailures.delete(route.channel);
      } else if (error.errorType === 'upstream.auth') this.countAuthFailure(route.channel);
    },
  };

  constructor(private readonly deps: ProberDeps) {
    this.now = deps.now ?? Date.now;
    this.random = deps.random ?? Math.random;
    this.errors = new ChannelErrorWindow(this.now);
  }

  start(): void {
    this.unsubscribe = this.deps.registry.onChange((snapshot) => this.sync(snapshot));
    this.sync(this.deps.registry.current());
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    for (const schedule of this.schedules.values()) clearTimeout(schedule.timer);
    this.schedules.clear();
    this.queue.clear();
  }

  /** How many channels have a probe timer (0 when no channel is probed). */
  get probedChannels(): number {
    return this.schedules.size;
  }

  /** Every channel in force (not the implicit sandbox fallback), by name. */
  snapshot(): ChannelHealth[] {
    return this.deps.registry
      .current()
      .channels.filter((channel) => !channel.fallbackOnly)
      .map((channel) => {
        const probes = this.results.get(channel.name) ?? [];
        const last = probes[0];
        const { calls, errors } = this.errors.counts(channel.name);
        return {
          name: channel.name,
          enabled: channel.enabled,
          autoDisabled: channel.autoDisabled,
          breaker: this.deps.breaker.state(channel.name),
          probe: channel.probe ?? null,
          probeOk: last?.ok ?? null,
          lastProbeLatencyMs: last?.latencyMs ?? null,
          lastProbeAt: last?.at ?? null,
          errorRate5m: calls > 0 ? errors / calls : null,
          calls5m: calls,
          errors5m: errors,
          recentProbes: probes.map((probe) => ({ ...probe })),
        };
      });
  }

  /** Probed: probes on, and in rotation or switched off by the gateway (an operator's switch-off is left alone). */
  private static probed(channel: RuntimeChannel): boolean {
    return !channel.fallbackOnly && channel.probe?.enabled === true && (channel.enabled || channel.autoDisabled);
  }

  private intervalOf(channel: RuntimeChannel): number {
    return this.deps.intervalMs ?? (channel.probe as ProbeSettings).intervalSeconds * 1000;
  }

  private sync(snapshot: ChannelSnapshot): void {
    if (this.stopped) return;
    const names = new Set(snapshot.channels.map((channel) => channel.name));
    const wanted = new Map(snapshot.channels.filter(ChannelProber.probed).map((channel) => [channel.name, this.intervalOf(channel)]));
    for (const [name, schedule] of this.schedules) {
      if (wanted.get(name) === schedule.intervalMs) continue;
      clearTimeout(schedule.timer);
      this.schedules.delete(name);
      this.queue.delete(name);
    }
    for (const [name, intervalMs] of wanted) {
      if (this.schedules.has(name)) continue;
      const schedule: Schedule = { intervalMs };
      this.schedules.set(name, schedule);
      this.arm(name, schedule, this.random() * intervalMs);
    }
    for (const map of [this.results, this.authFailures]) for (const name of map.keys()) if (!names.has(name)) map.delete(name);
    this.errors.keepOnly(names);
  }

  private arm(name: string, schedule: Schedule, delayMs: number): void {
    schedule.timer = setTimeout(() => {
      schedule.timer = undefined;
      this.queue.add(name);
      this.pump();
    }, delayMs);
    schedule.timer.unref();
  }

  private pump(): void {
    const max = this.deps.maxConcurrent ?? DEFAULT_MAX_CONCURRENT;
    while (!this.stopped && this.running < max && this.queue.size > 0) {
      const name = this.queue.values().next().value as string;
      this.queue.delete(name);
      this.running++;
      void this.probeOnce(name).finally(() => {
        this.running--;
        const schedule = this.schedules.get(name);
        if (schedule && !this.stopped && schedule.timer === undefined) this.arm(name, schedule, schedule.intervalMs * (0.9 + 0.2 * this.random()));
        this.pump();
      });
    }
  }

  private async probeOnce(name: string): Promise<void> {
    const channel = this.deps.registry.current().channel(name);
    if (!channel || !ChannelProber.probed(channel)) return;
    let result: ProbeResult;
    let retryable = false;
    try {
      const outcome = await this.deps.probe(channel);
      retryable = outcome.retryable === true;
      result = {
        ok: outcome.ok,
        at: this.now(),
        latencyMs: outcome.latencyMs,
        model: outcome.model,
        ...(outcome.status !== undefined && { status: outcome.status }),
        ...(outcome.errorType !== undefined && { errorType: outcome.errorType }),
        ...(!outcome.ok && { message: outcome.message }),
      };
    } catch (error) {
      // Nothing was sent: the channel names no model a probe can use (the admin Test says the same).
      const failure = toGatewayError(error);
      result = { ok: false, at: this.now(), latencyMs: 0, errorType: failure.errorType, message: failure.message };
    }
    if (this.stopped) return;
    this.keep(name, result);
    await this.apply(channel, result, retryable);
  }

  private keep(name: string, result: ProbeResult): void {
    const list = this.results.get(name) ?? [];
    list.unshift(result);
    if (list.length > RESULTS_KEPT) list.length = RESULTS_KEPT;
    this.results.set(name, list);
  }

  private async apply(channel: RuntimeChannel, result: ProbeResult, retryable: boolean): Promise<void> {
    const { breaker } = this.deps;
    if (result.ok) {
      this.authFailures.delete(channel.name);
      if (breaker.state(channel.name) !== 'closed') breaker.success(channel.name);
      if (channel.autoDisabled && channel.probe?.autoEnable) {
        await this.switchChannel(channel.name, true, { reason: 'probe passed', model: result.model, latencyMs: result.latencyMs });
      }
      return;
    }
    if (retryable) breaker.failure(channel.name);
    if (result.errorType === 'upstream.auth') this.countAuthFailure(channel.name);
  }

  private countAuthFailure(name: string): void {
    const failures = (this.authFailures.get(name) ?? 0) + 1;
    this.authFailures.set(name, failures);
    if (failures < AUTH_FAILURES_TO_DISABLE) return;
    const channel = this.deps.registry.current().channel(name);
    if (!channel?.enabled || !channel.probe?.enabled || !channel.probe.autoEnable) return;
    this.authFailures.delete(name);
    void this.switchChannel(name, false, { reason: 'upstream refused the credentials', failures });
  }

  private async switchChannel(name: string, enabled: boolean, details: Record<string, unknown>): Promise<void> {
    if (this.stopped) return;
    try {
      if (await this.deps.switchChannel(name, enabled, details)) {
        this.deps.logger.warn(
          { channel: name, ...details },
          enabled ? 'channel re-enabled: its probe passed' : 'channel disabled: its credentials were refused',
        );
      }
    } catch (error) {
      this.deps.logger.warn({ err: error, channel: name }, 'switching a channel on or off failed');
    }
  }
}
