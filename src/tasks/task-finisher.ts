/**
 * Ends tasks: on success the result files are copied into the media store *before* the task is
 * marked succeeded (vendor links expire); then one transaction writes the terminal status, the
 * ledger's settlement or release (with the task's usage row) and the client webhook. Losing the
 * compare-and-set means another process finished the task first, and nothing more happens here.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { ErrorType } from '../core/error-type.js';
import { GatewayError } from '../core/errors.js';
import { readImageHeader } from '../core/image-header.js';
import { sniffImageType } from '../core/image-type.js';
import type { MediaRef, TaskError, TaskObservation, TaskOutput, TaskResult, TaskStatus } from '../core/task.js';
import { type ReservationEnd, release, settle } from '../ledger/reservations.js';
import { type GuardOptions, guardedDownload, guardedFetch, PRIVATE_URL_CODE } from '../media/guarded-fetch.js';
import { isMediaQuotaError } from '../media/media-quota-errors.js';
import { type MediaStore, mediaOwner } from '../media/media-store.js';
import type { NewDelivery, StoredTask, TasksRepository } from '../store/tasks-repository.js';
import type { TaskTracing } from './task-tracing.js';
import { taskUnits } from './task-units.js';

/** Why a task ended without a result: what its record tells the client, and whose fault it was (null: the client's own cancel). */
export interface TaskFailure extends TaskError {
  errorType: ErrorType | null;
}

/** Most result files one task keeps. */
const MAX_OUTPUTS = 16;

interface FinisherOptions {
  repository: TasksRepository;
  media: MediaStore;
  logger: Logger;
  allowPrivateUrls: boolean;
  maxResultBytes: number;
  downloadTimeoutMs: number;
  /** The client webhook for a task's current state, if it has one and its family sends this state. */
  notify(task: StoredTask): NewDelivery | undefined;
}

export class TaskFinisher {
  /** Told of every task this process moved to a terminal status: charged (USD), or refunded (undefined). Limits free the task's holds here. */
  onEnded?: (task: StoredTask, chargedNusd: number | undefined) => void;
  /** Present when traces are on: each task's end is a span. */
  tracing?: TaskTracing;

  constructor(private readonly options: FinisherOptions) {}

  /** Copies the outputs into the media store, then marks the task succeeded and settles it. */
  /** `upstreamBaseUrl`: the base URL of the task's channel, whose own origin is fetched even when private (a local upstream). */
  async succeed(task: StoredTask, observation: TaskObservation, leaseOwner: string, upstreamBaseUrl?: string): Promise<StoredTask | undefined> {
    const startedAt = this.tracing ? Date.now() : 0;
    const media: MediaRef[] = [];
    try {
      for (const output of (observation.outputs ?? []).slice(0, MAX_OUTPUTS)) media.push(await this.keep(output, task, upstreamBaseUrl));
    } catch (error) {
      const ending = terminalCopyFailure(error);
      if (!ending) throw error;
      // Retrying cannot help (the owner's quota is full, the URL is refused): the task ends with the reason, refunded, and keeps nothing.
      for (const ref of media) await this.options.media.remove(ref.mediaId).catch(() => undefined);
      return this.fail(task, ending, 'failed', leaseOwner);
    }
    if (media.length === 0 && task.operation !== 'image.describe') {
      const noOutput = { code: 'no_output', message: 'The upstream reported success but returned no result.', errorType: 'upstream.server_error' } as const;
      return this.fail(task, noOutput, 'failed', leaseOwner);
    }
    const result: TaskResult = {
      media,
      ...(observation.seed !== undefined ? { seed: observation.seed } : {}),
      ...(observation.text !== undefined ? { text: observation.text } : {}),
      ...(observation.buttons ? { buttons: observation.buttons } : {}),
    };
    const now = Date.now();
    const { units, amount } = settlementOf(task, media.length, observation);
    const done = await this.options.repository.finish(
      task.id,
      leaseOwner,
      {
        status: 'succeeded',
        progress: 1,
        vendor_status: observation.vendorStatus,
        result: JSON.stringify(result),
        started_at: task.startedAt ?? now,
        finished_at: now,
        updated_at: now,
      },
      {
        money: (done) => settle(done.id, amount, taskEnd(done, 'ok', units, observation.usage?.totalTokens ?? 0)),
        delivery: (done) => this.options.notify(done),
      },
    );
    if (done) this.onEnded?.(done, amount);
    if (done) this.tracing?.finished(done, startedAt);
    return done;
  }

  /** Fails (or cancels) a task and refunds it, once. `leaseOwner` null: without holding the lease (client cancel, submit failure). */
  async fail(
    task: StoredTask,
    error: TaskFailure,
    status: Extract<TaskStatus, 'failed' | 'canceled'>,
    leaseOwner: string | null,
    vendorStatus?: string,
  ): Promise<StoredTask | undefined> {
    const now = Date.now();
    const done = await this.options.repository.finish(
      task.id,
      leaseOwner,
      {
        status,
        error_code: error.code,
        error_message: error.message,
        error_type: error.errorType,
        ...(vendorStatus !== undefined ? { vendor_status: vendorStatus } : {}),
        finished_at: now,
        updated_at: now,
      },
      {
        money: (finished) => release(finished.id, taskEnd(finished, status, 0, 0, error.errorType ?? undefined)),
        delivery: (finished) => this.options.notify(finished),
      },
    );
    if (done)
      this.options.logger.info({ task: task.id, status, code: error.code, errorType: error.errorType ?? undefined }, 'task ended without a result; refunded');
    if (done) this.onEnded?.(done, undefined);
    if (done) this.tracing?.finished(done, now, error);
    return done;
  }

  private async keep(output: TaskOutput, task: StoredTask, upstreamBaseUrl: string | undefined): Promise<MediaRef> {
    if ('stored' in output) return output.stored;
    const owner = mediaOwner(task.accountId, task.owner);
    if (output.kind === 'video') {
      const stored = await guardedDownload(output.url, this.guard(upstreamBaseUrl), (body) => this.options.media.putStream(body, sniffVideoType, owner));
      return { mediaId: stored.name, kind: 'video', mime: stored.mediaType, bytes: stored.bytes, sha256: stored.sha256 };
    }
    const { data } = await guardedFetch(output.url, this.guard(upstreamBaseUrl));
    const mime = sniffImageType(data);
    if (!mime) throw new GatewayError('upstream', "the upstream's result is not a supported image file", { retryable: false });
    const mediaId = await this.options.media.put(data, mime, owner);
    const header = readImageHeader(data);
    const sha256 = createHash('sha256').update(data).digest('hex');
    return { mediaId, kind: 'image', mime, bytes: data.byteLength, sha256, ...(header ? { width: header.width, height: header.height } : {}) };
  }

  private guard(upstreamBaseUrl: string | undefined): GuardOptions {
    return {
      allowPrivate: this.options.allowPrivateUrls,
      trustedBaseUrl: upstreamBaseUrl,
      maxBytes: this.options.maxResultBytes,
      timeoutMs: this.options.downloadTimeoutMs,
      param: 'result',
    };
  }
}

/** How a task ends when its result cannot be copied for a reason a later poll would meet again; undefined: try again. */
function terminalCopyFailure(error: unknown): TaskFailure | undefined {
  if (isMediaQuotaError(error)) {
    return { code: error.code ?? 'media_quota_exceeded', message: `The result could not be kept. ${error.message}`, errorType: error.errorType };
  }
  if (error instanceof GatewayError && error.code === PRIVATE_URL_CODE) {
    // The upstream answered with a link the gateway may not follow: its answer is at fault.
    return { code: 'result_url_refused', message: `The upstream's result was not fetched: ${error.message}`, errorType: 'upstream.server_error' };
  }
  return undefined;
}

/**
 * What a finished task is charged: per image produced (imagegen1), per second the vendor reports
 * (video; the asked length otherwise), else the task (the ledger charges never more than was reserved).
 */
export function settlementOf(task: StoredTask, produced: number, observation: TaskObservation): { units: number; amount: number } {
  const asked = taskUnits(task.operation, task.request);
  let units = asked;
  if (task.operation === 'image.generate') units = produced;
  if (task.operation === 'video.generate' && observation.usage?.seconds !== undefined) units = observation.usage.seconds;
  // nUSD: the price's share for the units produced, rounded once (half up); all of it when they are what was asked.
  const amount = units >= asked ? task.priceNusd : Math.round((task.priceNusd * Math.max(0, units)) / Math.max(1, asked));
  return { units, amount };
}

/** MP4 files carry `ftyp` at offset 4. */
function sniffVideoType(data: Uint8Array): string | undefined {
  return data.length > 12 && data[4] === 0x66 && data[5] === 0x74 && data[6] === 0x79 && data[7] === 0x70 ? 'video/mp4' : undefined;
}

/** The end of a task's reservation: the facts of its `task:<id>` usage row. */
function taskEnd(task: StoredTask, outcome: string, units: number, outputTokens: number, errorType?: ErrorType): ReservationEnd {
  return {
    at: task.updatedAt,
    usage: {
      requestId: `task:${task.id}`,
      keyId: task.owner,
      accountId: task.accountId,
      surface: task.surface,
      operation: task.operation,
      model: task.model,
      stream: false,
      route: { channel: task.channel ?? '', provider: task.provider ?? '', upstreamModel: task.upstreamModel ?? '' },
      outcome,
      usage: { inputTokens: 0, outputTokens },
      units,
      latencyMs: Math.max(0, (task.finishedAt ?? task.updatedAt) - task.createdAt),
      createdAt: task.updatedAt,
      ...(errorType ? { errorType } : {}),
    },
  };
}
