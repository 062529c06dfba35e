/**
 * The task engine's front: submit (admit → write the row and reserve → submit upstream with
 * failover before any upstream accepted → mark submitted), owner-only lookups, cancel, and
 * upstream callbacks (which only wake a task for an immediate poll).
 */
import type { Logger } from 'pino';
import { isStorableText } from '../core/client-strings.js';
import { quoteValue } from '../core/describe-value.js';
import { GatewayError, toGatewayError } from '../core/errors.js';
import { randomId } from '../core/ids.js';
import type { AuthenticatedKey } from '../core/key.js';
import type { MediaRef, StoredTaskRequest, Task, TaskOperation } from '../core/task.js';
import type { CallLifecycle } from '../gateway/call-lifecycle.js';
import { reserve } from '../ledger/reservations.js';
import { unitsCost } from '../ledger/pricing.js';
import type { TaskCall, TaskServices } from '../gateway/contract.js';
import { type ByteRange, type MediaStore, mediaOwner, type StoredMedia } from '../media/media-store.js';
import type { TaskSubmission } from '../providers/types.js';
import type { Catalog } from '../routing/catalog.js';
import type { ChannelRegistry, RuntimeChannel } from '../routing/channel-registry.js';
import type { NewDelivery, StoredTask, TasksRepository } from '../store/tasks-repository.js';
import { pollDelay } from './poll-delay.js';
import { keepLateAcceptance } from './late-acceptance.js';
import type { TaskFinisher } from './task-finisher.js';
import { type TaskPoller, targetOf } from './task-poller.js';
import { taskMediaUrl } from './task-media-url.js';
import type { TaskTracing } from './task-tracing.js';
import { taskUnits } from './task-units.js';

/** A task's deadline until its channel's policy sets the real one at submit. */
const PROVISIONAL_DEADLINE_MS = 24 * 3_600_000;

interface TaskServiceOptions {
  lifecycle: CallLifecycle;
  repository: TasksRepository;
  registry: ChannelRegistry;
  catalog: Catalog;
  media: MediaStore;
  finisher: TaskFinisher;
  poller: TaskPoller;
  logger: Logger;
  /** The gateway's public base URL, when configured (links and upstream callbacks use it). */
  publicBaseUrl?: string;
  /** How long the submitting request holds its queued row before a sweeper may fail it. */
  submitLeaseMs: number;
  checkCallbackUrl(url: string, param: string): void;
  /** A new public id in the look of the surface's family. */
  newTaskId(surface: string): string;
  notify(task: StoredTask): NewDelivery | undefined;
  /** Present when traces are on. */
  tracing?(): TaskTracing | undefined;
}

export class TaskService implements TaskServices {
  constructor(private readonly options: TaskServiceOptions) {}

  async submit(call: TaskCall): Promise<Task> {
    const { lifecycle, repository, finisher, poller } = this.options;
    const parent = call.parentId === undefined ? undefined : await this.parentFor(call);
    const model = call.request.model;
    const id = this.options.newTaskId(call.surface);
    const accepts = (channel: RuntimeChannel) =>
      channel.provider.tasks?.operations.has(call.operation) === true && (parent === undefined || channel.name === parent.channel);
    const priceNusd = this.priceOf(call, accepts);
    // The task's limits and budget are held under its id until it is terminal (task-finisher's onEnded).
    const taskReservation = { id, amountNusd: priceNusd, leaseMs: PROVISIONAL_DEADLINE_MS };
    const admitted = await lifecycle.admit({ ...call, model, operation: call.operation, stream: false, taskReservation });
    const owner = mediaOwner(call.key.accountId, call.key.id);
    // A task's result is kept in the media store: an owner whose quota is full is refused before anything runs.
    await this.options.media.checkRoom(owner, 1).catch((error: unknown) => {
      void admitted.fail(error);
      throw error;
    });
    const now = Date.now();
    const { images, ...rest } = call.request;
    const request: StoredTaskRequest = { ...rest, ...(images ? { imageCount: images.length } : {}), publicBaseUrl: call.publicBaseUrl };
    const traceparent = this.options.tracing?.()?.submitTraceparent(admitted);
    if (traceparent !== undefined) request.traceparent = traceparent;
    await repository.insertQueued(
      {
        id,
        owner: call.key.id,
        accountId: call.key.accountId,
        surface: call.surface,
        operation: call.operation,
        model,
        request,
        parentId: parent?.id,
        priceNusd,
        callbackToken: randomId(32),
        createdAt: now,
        deadlineAt: now + PROVISIONAL_DEADLINE_MS,
        leaseOwner: poller.instance,
        leaseUntil: now + this.options.submitLeaseMs,
      },
      reserve({ id, owner: call.key.id, amountNusd: priceNusd, at: now }),
    );
    const queued = (await repository.get(id)) as StoredTask;
    // The submit lease is renewed while the upstream takes its time; should this process die, the task is swept within one lease.
    poller.leases.hold(id);
    let accepted: { submission: TaskSubmission; channel: RuntimeChannel };
    try {
      accepted = await admitted.attempt(
        async (channel, attempt) => {
          const provider = channel.provider.tasks;
          if (!provider) throw new GatewayError('internal', 'channel without tasks chosen for a task');
          try {
            const submission = await provider.submit(call.operation, call.request, {
              ...attempt,
              taskId: id,
              callbackUrl: this.options.publicBaseUrl ? `${this.options.publicBaseUrl}/tasks/callback/${queued.callbackToken}` : undefined,
              parent: parent ? { ...targetOf(parent), result: parent.result } : undefined,
              loadMedia: (ref) => this.loadMedia(ref),
              storeMedia: (data, mime, kind) => this.storeMedia(data, mime, kind, owner),
            });
            return { submission, channel };
          } catch (error) {
            throw noFailoverOnTimeout(error);
          }
        },
        { accepts },
      );
    } catch (error) {
      const failure = toGatewayError(error);
      poller.leases.drop(id);
      await finisher.fail(queued, { code: 'submit_failed', message: failure.message, errorType: failure.errorType }, 'failed', poller.instance);
      throw error;
    }
    const { submission, channel } = accepted;
    const policy = channel.provider.tasks!.pollPolicy(channel.config);
    const observed = submission.observation;
    const startedNow = observed?.status === 'running';
    const done = observed?.status === 'succeeded' || observed?.status === 'failed' || observed?.status === 'canceled';
    const submittedAt = Date.now();
    const nextPollAt = done ? submittedAt : submittedAt + pollDelay(policy, 0);
    const upstreamModel = channel.upstreamModel(model);
    // Written whoever holds the lease now: a submitter that lost its submit lease while the upstream
    // took its time still records the accepted job, unless the sweep has already failed the task.
    const task = await repository
      .recordSubmission(
        id,
        {
          channel: channel.name,
          provider: channel.config.provider,
          upstream_model: upstreamModel,
          upstream_id: submission.upstreamId,
          upstream_data: submission.upstreamData ? JSON.stringify(submission.upstreamData) : null,
          status: startedNow ? 'running' : 'submitted',
          vendor_status: observed?.vendorStatus ?? null,
          callback_url: call.callback?.url ?? null,
          callback_state: call.callback?.state ?? null,
          submitted_at: submittedAt,
          ...(startedNow ? { started_at: submittedAt } : {}),
          updated_at: submittedAt,
          deadline_at: now + policy.deadlineMs,
          next_poll_at: nextPollAt,
          // A sweep that suspected the submit counted its look here (interrupted-submits.ts).
          poll_count: 0,
          lease_owner: null,
          lease_until: 0,
        },
        this.options.notify,
      )
      .finally(() => poller.leases.drop(id));
    await admitted.settle(undefined, 0);
    if (!task) {
      // The sweep failed and refunded it before the upstream's answer came: the job is recorded and canceled upstream.
      await keepLateAcceptance({ repository, logger: this.options.logger }, id, channel, upstreamModel, submission);
      return (await repository.get(id)) as StoredTask;
    }
    if (done) poller.wake();
    else poller.expect(nextPollAt);
    return task;
  }

  get(key: AuthenticatedKey, id: string): Promise<Task | undefined> {
    return this.findOwned(id, key.id);
  }

  list(key: AuthenticatedKey, ids: readonly string[]): Promise<Task[]> {
    return this.options.repository.listForOwner(key.id, ids.filter(isStorableText));
  }

  async cancel(key: AuthenticatedKey, id: string): Promise<Task | undefined> {
    const task = await this.findOwned(id, key.id);
    if (!task || (task.status !== 'submitted' && task.status !== 'running')) return task;
    const channel = this.options.registry.current().channel(task.channel);
    const provider = channel?.provider.tasks;
    if (provider?.cancel && channel) {
      await provider.cancel(targetOf(task), { channel: channel.config, signal: AbortSignal.timeout(10_000) }).catch((error) => {
        this.options.logger.warn({ task: id, err: toGatewayError(error).message }, 'upstream cancel failed; the task is canceled here all the same');
      });
    }
    // The client's own choice: no failure, no error type.
    const canceled = await this.options.finisher.fail(task, { code: 'canceled', message: 'Canceled by the client.', errorType: null }, 'canceled', null);
    return canceled ?? (await this.options.repository.findForOwner(id, key.id));
  }

  async openResult(
    task: Task,
    index: number,
    range?: ByteRange,
  ): Promise<{ kind: 'found'; media: StoredMedia; ref: MediaRef } | { kind: 'expired' | 'missing' }> {
    const ref = task.status === 'succeeded' ? task.result?.media[index] : undefined;
    if (!ref) return { kind: 'missing' };
    const media = await this.options.media.open(ref.mediaId, range);
    return media ? { kind: 'found', media, ref } : { kind: 'expired' };
  }

  page(
    key: AuthenticatedKey,
    query: { operation: TaskOperation; limit: number; after?: string; order: 'asc' | 'desc' },
  ): Promise<{ tasks: Task[]; hasMore: boolean }> {
    return this.options.repository.pageForOwner(key.id, query);
  }

  async remove(key: AuthenticatedKey, id: string): Promise<boolean> {
    const task = await this.cancel(key, id);
    if (!task) return false;
    if (!(await this.options.repository.markDeleted(id, key.id, Date.now()))) return false;
    for (const ref of task.result?.media ?? []) await this.options.media.remove(ref.mediaId);
    return true;
  }

  checkCallbackUrl(url: string, param: string): void {
    this.options.checkCallbackUrl(url, param);
  }

  mediaUrl(task: Task, mediaId: string): string {
    return taskMediaUrl(this.options.publicBaseUrl, task, mediaId);
  }

  /**
   * An upstream called back on a task's callback URL: verified where the vendor signs its
   * callbacks, then the task is polled at once. Nothing is read from the body: billing only
   * ever follows a poll. Resolves false when the token or the signature is not good.
   */
  async wake(token: string, headers: Record<string, string | string[] | undefined>, body: Buffer): Promise<boolean> {
    if (!isStorableText(token)) return false;
    const task = await this.options.repository.findByToken(token);
    if (!task?.channel) return false;
    const channel = this.options.registry.current().channel(task.channel);
    const verify = channel?.provider.tasks?.verifyCallback;
    if (verify && channel && !verify.call(channel.provider.tasks, channel.config, headers, body)) return false;
    await this.options.repository.wakeByToken(token, Date.now());
    this.options.poller.wake();
    return true;
  }

  private async parentFor(call: TaskCall): Promise<StoredTask> {
    const parent = await this.findOwned(call.parentId as string, call.key.id);
    if (!parent) throw new GatewayError('not_found', `No task ${quoteValue(call.parentId as string)} to act on.`, { code: 'task_not_found', param: 'taskId' });
    if (parent.status !== 'succeeded')
      throw new GatewayError('invalid_request', `Task ${parent.id} has not finished; act on it once it succeeded.`, { param: 'taskId' });
    const customId = call.request.action?.customId;
    if (!customId || !parent.result?.buttons?.some((button) => button.customId === customId)) {
      throw new GatewayError('invalid_request', `customId is not one of task ${parent.id}'s buttons.`, { code: 'unknown_custom_id', param: 'customId' });
    }
    return parent;
  }

  /** The owner's task; an id the database cannot even hold (U+0000) is no task's. */
  private findOwned(id: string, owner: string): Promise<StoredTask | undefined> {
    return isStorableText(id) ? this.options.repository.findForOwner(id, owner) : Promise.resolve(undefined);
  }

  /** Reserved at submit, in nUSD: the catalog's price per unit (`taskUnits`); nothing when only simulated channels could run it. */
  private priceOf(call: TaskCall, accepts: (channel: RuntimeChannel) => boolean): number {
    const candidates = this.options.registry.current().candidates(call.request.model, call.operation).filter(accepts);
    if (candidates.every((channel) => channel.provider.simulated === true)) return 0;
    return unitsCost(this.options.catalog.priceOf(call.request.model), taskUnits(call.operation, call.request));
  }

  private async loadMedia(ref: MediaRef): Promise<Uint8Array> {
    const stored = await this.options.media.open(ref.mediaId);
    if (!stored) throw new GatewayError('invalid_request', 'The result of the task acted on has expired.', { code: 'result_expired', param: 'taskId' });
    const chunks: Buffer[] = [];
    for await (const chunk of stored.body) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  private async storeMedia(data: Uint8Array, mime: string, kind: MediaRef['kind'], owner: string): Promise<MediaRef> {
    const mediaId = await this.options.media.put(data, mime, owner);
    return { mediaId, kind, mime, bytes: data.byteLength };
  }
}

/** A timed-out submit may have reached the upstream: trying another channel could run the task twice. */
function noFailoverOnTimeout(error: unknown): unknown {
  const failure = toGatewayError(error);
  if (failure.kind !== 'timeout' || failure.retryable === false) return error;
  return new GatewayError('timeout', failure.message, { retryable: false, cause: error });
}
