/**
 * The scheduler: every tick it takes due tasks under a lease, channel by channel, and polls
 * them concurrently — in batches where the vendor has a batch query — with at most
 * `concurrency` polls in flight per channel, so one slow vendor never delays the others. A
 * 429 holds back only its own channel. Polls back off per the provider's policy; a task past
 * its deadline is failed and refunded; a queued task whose submitting process went silent is
 * failed and refunded by the sweep of `interrupted-submits.ts` (never resubmitted).
 */
import type { Logger } from 'pino';
import { toGatewayError } from '../core/errors.js';
import { randomId } from '../core/ids.js';
import { LeaseHeartbeat } from './lease-heartbeat.js';
import { IdleBackoffTimer } from '../core/idle-backoff-timer.js';
import type { TaskObservation } from '../core/task.js';
import type { TaskPollPolicy, TaskProvider, TaskTarget } from '../providers/types.js';
import type { ChannelRegistry, RuntimeChannel } from '../routing/channel-registry.js';
import type { NewDelivery, StoredTask, TasksRepository } from '../store/tasks-repository.js';
import { sweepInterruptedSubmits } from './interrupted-submits.js';
import { ORPHAN_POLICY, pollDelay } from './poll-delay.js';
import type { TaskFinisher } from './task-finisher.js';
import { upstreamTaskErrorType } from './task-failure-type.js';
import type { TaskTracing } from './task-tracing.js';

interface PollerOptions {
  repository: TasksRepository;
  registry: ChannelRegistry;
  finisher: TaskFinisher;
  logger: Logger;
  /** Polls (single or batch) in flight at once per channel. */
  concurrency: number;
  /** Most tasks taken in one claim. */
  claimBatch: number;
  tickMs?: number;
  /** The longest wait between ticks while they find nothing due (default 1 s); a local submit or callback wakes it. */
  maxIdleTickMs?: number;
  /** How long a claimed task stays ours without a heartbeat (renewed every third of it while we work on it). */
  leaseMs?: number;
  notify(task: StoredTask): NewDelivery | undefined;
}

const APPLY_PARALLEL = 4;

interface Polled {
  task: StoredTask;
  observation?: TaskObservation;
  error?: unknown;
}

export class TaskPoller {
  /** This process's name on the leases it takes. */
  readonly instance = `poller-${randomId(12)}`;
  private readonly inFlight = new Map<string, number>();
  private readonly heldUntil = new Map<string, number>();
  private readonly running = new Set<Promise<void>>();
  private readonly timer: IdleBackoffTimer;
  private ticking = false;
  private stopped = false;
  private readonly leaseMs: number;
  /** Renews the leases of the tasks this process is polling, downloading or submitting. */
  readonly leases: LeaseHeartbeat;
  /** Observations of states nobody mapped, for the logs and metrics. */
  unknownStates = 0;
  /** Present when traces are on: each poll is a span. */
  tracing?: TaskTracing;

  constructor(private readonly options: PollerOptions) {
    this.leaseMs = options.leaseMs ?? 30_000;
    this.leases = new LeaseHeartbeat((ids, until) => options.repository.renewLeases(ids, this.instance, until), this.leaseMs, options.logger);
    const baseMs = options.tickMs ?? 200;
    this.timer = new IdleBackoffTimer(() => this.tick(), { baseMs, maxIdleMs: options.maxIdleTickMs ?? Math.max(baseMs, 1_000) });
  }

  start(): void {
    this.stopped = false;
    this.timer.start();
    this.leases.start();
  }

  /** Polls now (e.g. after a submit or an upstream callback), and keeps ticking often while there is work. */
  wake(): void {
    if (this.stopped) return;
    this.timer.reset();
    setImmediate(() => void this.tick());
  }

  /** A task of this process is due for a poll at `atMs`: the next tick comes by then, however long the scheduler has been idle. */
  expect(atMs: number): void {
    if (!this.stopped) this.timer.runBy(atMs);
  }

  /** Stops taking tasks and waits for the polls in flight; unfinished ones keep their leases until they expire. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.timer.stop();
    await Promise.allSettled([...this.running]);
    this.leases.stop();
  }

  /** Polls in flight, across channels. */
  get active(): number {
    return this.running.size;
  }

  /** One pass over what is due; true when it found something to do (or polls are still running). */
  async tick(): Promise<boolean> {
    if (this.ticking || this.stopped) return this.ticking;
    this.ticking = true;
    let found = this.running.size > 0;
    try {
      const now = Date.now();
      const sweep = {
        repository: this.options.repository,
        finisher: this.options.finisher,
        instance: this.instance,
        leaseMs: this.leaseMs,
        claimBatch: this.options.claimBatch,
      };
      if (await sweepInterruptedSubmits(sweep, now)) found = true;
      for (const channelName of await this.options.repository.dueChannels(now)) {
        found = true;
        if ((this.heldUntil.get(channelName) ?? 0) > now) continue;
        const channel = this.options.registry.current().channel(channelName);
        const tasks = channel?.provider.tasks;
        const policy = tasks && channel ? tasks.pollPolicy(channel.config) : ORPHAN_POLICY;
        const batchSize = tasks?.pollMany ? Math.max(1, policy.maxBatch) : 1;
        // Claims again while a claim came back full and polls are free: one claim per tick
        // would cap a channel at claimBatch tasks per tick, whatever its concurrency.
        for (;;) {
          const free = this.options.concurrency - (this.inFlight.get(channelName) ?? 0);
          if (free <= 0) break;
          const limit = Math.min(this.options.claimBatch, free * batchSize);
          const claimed = await this.options.repository.claimDue(channelName, now, limit, this.instance, this.leaseMs);
          for (let i = 0; i < claimed.length; i += batchSize) {
            const batch = claimed.slice(i, i + batchSize);
            for (const task of batch) this.leases.hold(task.id);
            const polled = this.pollBatch(channel, policy, batch).finally(() => {
              for (const task of batch) this.leases.drop(task.id);
            });
            this.track(channelName, polled);
          }
          if (claimed.length < limit || this.stopped) break;
        }
      }
    } catch (error) {
      this.options.logger.error({ err: error }, 'task scheduler pass failed; retrying on the next tick');
    } finally {
      this.ticking = false;
    }
    return found;
  }

  private track(channelName: string, work: Promise<void>): void {
    this.inFlight.set(channelName, (this.inFlight.get(channelName) ?? 0) + 1);
    const done = work
      .catch((error) => this.options.logger.error({ err: error, channel: channelName }, 'task poll failed'))
      .finally(() => {
        this.inFlight.set(channelName, (this.inFlight.get(channelName) ?? 1) - 1);
        this.running.delete(done);
      });
    this.running.add(done);
  }

  private async pollBatch(channel: RuntimeChannel | undefined, policy: TaskPollPolicy, tasks: StoredTask[]): Promise<void> {
    const now = Date.now();
    const live: StoredTask[] = [];
    for (const task of tasks) {
      if (task.deadlineAt <= now) await this.expire(task, channel);
      else live.push(task);
    }
    if (live.length === 0) return;
    const provider = channel?.provider.tasks;
    if (!channel || !provider) {
      for (const task of live) await this.reschedule(task, ORPHAN_POLICY);
      return;
    }
    const results = await this.observe(provider, channel, live);
    // A few at a time: results are downloaded here, and one slow download must not hold the batch.
    for (let i = 0; i < results.length; i += APPLY_PARALLEL) {
      await Promise.all(
        results
          .slice(i, i + APPLY_PARALLEL)
          .map((polled) =>
            this.tracing
              ? this.tracing.poll(polled.task, channel.name, polled, () => this.apply(polled, channel, policy))
              : this.apply(polled, channel, policy),
          ),
      );
    }
  }

  private async observe(provider: TaskProvider, channel: RuntimeChannel, tasks: StoredTask[]): Promise<Polled[]> {
    const context = { channel: channel.config, signal: AbortSignal.timeout(Math.min(channel.config.timeoutMs, 60_000)) };
    if (provider.pollMany && tasks.length > 1) {
      try {
        const seen = await provider.pollMany(tasks.map(targetOf), context);
        return tasks.map((task) => ({ task, observation: seen.get(task.upstreamId ?? '') }));
      } catch (error) {
        return tasks.map((task) => ({ task, error }));
      }
    }
    return Promise.all(
      tasks.map(async (task): Promise<Polled> => {
        try {
          return { task, observation: await provider.poll(targetOf(task), context) };
        } catch (error) {
          return { task, error };
        }
      }),
    );
  }

  private async apply({ task, observation, error }: Polled, channel: RuntimeChannel, policy: TaskPollPolicy): Promise<void> {
    const { finisher, logger } = this.options;
    if (error !== undefined || !observation) {
      const failure = error === undefined ? undefined : toGatewayError(error);
      if (failure?.kind === 'rate_limit') this.holdBack(channel.name, failure.retryAfter);
      if (failure) logger.warn({ task: task.id, channel: channel.name, err: failure.message }, 'task poll failed; will retry');
      await this.reschedule(task, policy);
      return;
    }
    switch (observation.status) {
      case 'succeeded':
        // A batch may have taken a while: the download gets a fresh lease, or is left to whoever took the task over.
        if (!(await this.options.repository.renewLease(task.id, this.instance, Date.now() + this.leaseMs))) return;
        try {
          await finisher.succeed(task, observation, this.instance, channel.config.baseUrl);
        } catch (downloadError) {
          logger.warn({ task: task.id, err: toGatewayError(downloadError).message }, 'task result could not be copied yet; will retry');
          await this.reschedule(task, policy);
        }
        return;
      case 'failed':
      case 'canceled':
        await finisher.fail(
          task,
          {
            ...(observation.error ?? {
              code: observation.status === 'canceled' ? 'canceled_upstream' : 'upstream_failed',
              message: `The upstream reports the task ${observation.status}.`,
            }),
            errorType: upstreamTaskErrorType(observation.status, observation.error),
          },
          observation.status,
          this.instance,
          observation.vendorStatus,
        );
        return;
      default:
        if (observation.status === 'unknown') {
          this.unknownStates++;
          logger.warn(
            { task: task.id, channel: channel.name, vendorStatus: observation.vendorStatus },
            'task in a state the provider does not know; polling on until its deadline',
          );
        }
        await this.progress(task, observation, policy);
    }
  }

  private async progress(task: StoredTask, observation: TaskObservation, policy: TaskPollPolicy): Promise<void> {
    const now = Date.now();
    const status = observation.status === 'running' || task.status === 'running' ? 'running' : 'submitted';
    const progress = Math.max(task.progress, clampProgress(observation.progress));
    const visible = status !== task.status || progress !== task.progress;
    const nextPollAt = now + pollDelay(policy, task.pollCount);
    this.expect(nextPollAt);
    await this.options.repository.update(
      task.id,
      this.instance,
      {
        status,
        progress,
        vendor_status: observation.vendorStatus,
        ...(status === 'running' && task.startedAt === undefined ? { started_at: now } : {}),
        ...(visible ? { updated_at: now } : {}),
        next_poll_at: nextPollAt,
        poll_count: task.pollCount + 1,
        lease_owner: null,
        lease_until: 0,
      },
      visible,
      // Without a callback there is no webhook to queue with the change.
      task.callback ? this.options.notify : undefined,
    );
  }

  private async reschedule(task: StoredTask, policy: TaskPollPolicy): Promise<void> {
    const now = Date.now();
    const held = task.channel ? (this.heldUntil.get(task.channel) ?? 0) : 0;
    const nextPollAt = Math.max(held, now + pollDelay(policy, task.pollCount));
    this.expect(nextPollAt);
    await this.options.repository.release(task.id, this.instance, {
      next_poll_at: nextPollAt,
      poll_count: task.pollCount + 1,
    });
  }

  private holdBack(channelName: string, retryAfterSeconds: number | undefined): void {
    const until = Date.now() + Math.min(600, Math.max(1, retryAfterSeconds ?? 5)) * 1000;
    this.heldUntil.set(channelName, Math.max(this.heldUntil.get(channelName) ?? 0, until));
  }

  private async expire(task: StoredTask, channel: RuntimeChannel | undefined): Promise<void> {
    const timedOut = { code: 'timeout', message: 'The task did not finish in time.', errorType: 'upstream.timeout' } as const;
    const done = await this.options.finisher.fail(task, timedOut, 'failed', this.instance);
    const provider = channel?.provider.tasks;
    if (done && provider?.cancel && channel && task.upstreamId) {
      await provider.cancel(targetOf(task), { channel: channel.config, signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
    }
  }
}

function clampProgress(progress: number | undefined): number {
  return progress === undefined || !Number.isFinite(progress) ? 0 : Math.min(0.99, Math.max(0, progress));
}

export function targetOf(task: StoredTask): TaskTarget {
  return {
    taskId: task.id,
    operation: task.operation,
    upstreamModel: task.upstreamModel ?? task.model,
    upstreamId: task.upstreamId ?? '',
    upstreamData: task.upstreamData,
    request: task.request,
    createdAt: task.createdAt,
  };
}
