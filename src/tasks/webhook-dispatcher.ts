/**
 * Sends the client-webhook outbox. On a short interval (and whenever the engine calls `wake()`
 * after enqueueing) it claims due deliveries under a lease, POSTs each signed with the owner's
 * secret, at most `concurrency` at a time and each bounded in time, so a slow or failing receiver
 * holds one slot for at most the timeout and never the others. A 2xx answer delivers; anything
 * else is retried with growing delays until `retryHours` after the delivery was enqueued, then
 * the delivery is dead. At-least-once: a gateway stopping mid-POST leaves the lease to run out,
 * and the delivery is sent again; receivers dedupe on `x-gengate-delivery`.
 */
import { Agent } from 'undici';
import type { Logger } from 'pino';
import { IdleBackoffTimer } from '../core/idle-backoff-timer.js';
import { guardedLookup } from '../media/guarded-fetch.js';
import type { WebhookDeliveriesRepository, WebhookDelivery } from '../store/webhook-deliveries-repository.js';
import { callbackUrlProblem } from './callback-url.js';
import { postWebhook, type PostOutcome } from './post-webhook.js';
import { DEFAULT_WEBHOOK_BACKOFF, type WebhookBackoff, webhookRetryDelayMs } from './webhook-backoff.js';
import { signWebhook } from './webhook-signature.js';

export type WebhookQueue = Pick<WebhookDeliveriesRepository, 'claimDue' | 'markDelivered' | 'reschedule' | 'markDead'>;

export interface WebhookDispatcherOptions {
  repository: WebhookQueue;
  /** The owner's signing secret (`webhookSecretFor`). */
  secretFor: (owner: string) => string | Promise<string>;
  /** Whether receivers on loopback and private addresses are called (`media.allowPrivateUrls`). */
  allowPrivateUrls: boolean;
  /** How long after it was enqueued a delivery is retried (`tasks.webhookRetryHours`). */
  retryHours: number;
  logger: Logger;
  /** How often the outbox is looked at while it has work (default 250 ms). */
  intervalMs?: number;
  /** The longest wait between looks while the outbox is empty (default 2 s); enqueueing here wakes it. */
  maxIdleIntervalMs?: number;
  /** Unix milliseconds; schedules retries and dates the signature (default `Date.now`). */
  now?: () => number;
  /** Deliveries in flight at once (default 16). */
  concurrency?: number;
  /** One POST, answer included (default 10 s). */
  timeoutMs?: number;
  backoff?: WebhookBackoff;
  /** How long a claimed delivery is ours (default 60 s); must outlast `timeoutMs`. */
  leaseMs?: number;
  /** How long `stop()` waits for deliveries in flight before cancelling them (default timeout + 1 s). */
  stopTimeoutMs?: number;
}

const USER_AGENT = 'gengate-webhooks';

export class WebhookDispatcher {
  private readonly repository: WebhookQueue;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly stopTimeoutMs: number;
  private readonly backoff: WebhookBackoff;
  private readonly agent: Agent;
  private readonly cancel = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timer: IdleBackoffTimer;
  private claiming: Promise<void> | undefined;
  /** How many the last claim took. */
  private lastClaimed = 0;
  /** A tick asked for while a claim was running: claim again when it ends. */
  private tickAgain = false;
  /** The last claim filled every free slot, so more may be due right now. */
  private backlog = false;
  private stopped = false;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.repository = options.repository;
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    const intervalMs = options.intervalMs ?? 250;
    this.timer = new IdleBackoffTimer(() => this.pass(), { baseMs: intervalMs, maxIdleMs: options.maxIdleIntervalMs ?? Math.max(intervalMs, 2_000) });
    this.concurrency = Math.max(1, options.concurrency ?? 16);
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.leaseMs = Math.max(options.leaseMs ?? 60_000, this.timeoutMs + 5_000);
    this.stopTimeoutMs = options.stopTimeoutMs ?? this.timeoutMs + 1_000;
    this.backoff = options.backoff ?? DEFAULT_WEBHOOK_BACKOFF;
    // Every address a receiver's host resolves to is checked when connecting, so DNS cannot
    // point a delivery inside the network; literal addresses are checked before (callbackUrlProblem).
    this.agent = new Agent({
      keepAliveTimeout: 5_000,
      connect: options.allowPrivateUrls ? { timeout: this.timeoutMs } : { timeout: this.timeoutMs, lookup: guardedLookup },
    });
  }

  start(): void {
    if (this.timer.started || this.stopped) return;
    this.timer.start();
    this.tick();
  }

  /** Looks at the outbox now rather than at the next interval (after the engine enqueued), and often while it has work. */
  wake(): void {
    if (!this.timer.started) return;
    this.timer.reset();
    setImmediate(() => this.tick());
  }

  /**
   * Stops claiming and waits for the deliveries in flight, at most `stopTimeoutMs`; those still
   * running then are cancelled unrecorded (their lease runs out and they are sent again later).
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.timer.stop();
    await this.claiming;
    const settled = Promise.allSettled([...this.inFlight]);
    let bound: NodeJS.Timeout | undefined;
    const expired = await Promise.race([
      settled.then(() => false),
      new Promise<boolean>((resolve) => (bound = setTimeout(() => resolve(true), this.stopTimeoutMs))),
    ]);
    clearTimeout(bound);
    if (expired) {
      this.logger.warn({ inFlight: this.inFlight.size }, 'webhook deliveries still running at shutdown were cancelled; they will be sent again');
      this.cancel.abort();
      await settled;
    }
    await this.agent.close().catch(() => undefined);
  }

  /** One pass for tests and tools: claims what is due (up to the free slots), delivers it, waits. Returns how many were claimed. */
  async runOnce(): Promise<number> {
    await this.claiming;
    const claimed = await this.claim();
    await Promise.allSettled([...this.inFlight]);
    return claimed;
  }

  /** The timer's pass: a claim; it found work when it took deliveries or some are still being sent. */
  private async pass(): Promise<boolean> {
    this.tick();
    await this.claiming;
    return this.lastClaimed > 0 || this.inFlight.size > 0;
  }

  private tick(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.tickAgain = true;
      return;
    }
    this.claiming = this.claim()
      .then(() => undefined)
      .catch((error: unknown) => this.logger.error({ err: error }, 'claiming webhook deliveries failed'))
      .finally(() => {
        this.claiming = undefined;
        if (this.tickAgain) {
          this.tickAgain = false;
          this.tick();
        }
      });
  }

  private async claim(): Promise<number> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0 || this.stopped) return 0;
    const rows = await this.repository.claimDue(this.now(), free, this.leaseMs);
    this.lastClaimed = rows.length;
    this.backlog = rows.length === free;
    for (const row of rows) this.launch(row);
    return rows.length;
  }

  private launch(row: WebhookDelivery): void {
    const delivery: Promise<void> = this.deliver(row)
      .catch((error: unknown) =>
        this.logger.error({ err: error, delivery: row.id }, 'recording a webhook delivery failed; it is retried when its lease runs out'),
      )
      .finally(() => {
        this.inFlight.delete(delivery);
        if (this.backlog && this.timer.started) this.tick();
      });
    this.inFlight.add(delivery);
  }

  private async deliver(row: WebhookDelivery): Promise<void> {
    const refused = callbackUrlProblem(row.url, { allowPrivateUrls: this.options.allowPrivateUrls });
    if (refused) {
      await this.repository.markDead(row.id, `refused: the URL ${refused}`);
      this.logger.warn({ delivery: row.id, task: row.task_id }, 'webhook URL refused');
      return;
    }
    const outcome = await this.post(row);
    if (outcome.kind === 'aborted') return;
    const now = this.now();
    const attempts = row.attempts + 1;
    if (outcome.kind === 'delivered') {
      await this.repository.markDelivered(row.id, now);
      this.logger.debug({ delivery: row.id, task: row.task_id, attempts, status: outcome.status }, 'webhook delivered');
      return;
    }
    if (outcome.kind === 'refused') {
      await this.repository.markDead(row.id, `refused: ${outcome.error}`, attempts);
      this.logger.warn({ delivery: row.id, task: row.task_id }, 'webhook URL refused');
      return;
    }
    const giveUpAt = row.created_at + this.options.retryHours * 3_600_000;
    const next = now + webhookRetryDelayMs(attempts, this.backoff);
    if (next > giveUpAt) {
      await this.repository.markDead(row.id, `gave up after ${attempts} attempts over ${this.options.retryHours} h; last: ${outcome.error}`, attempts);
      this.logger.warn({ delivery: row.id, task: row.task_id, attempts, error: outcome.error }, 'webhook delivery abandoned');
      return;
    }
    await this.repository.reschedule(row.id, attempts, next, outcome.error);
    this.timer.runBy(Date.now() + (next - now));
    this.logger.info({ delivery: row.id, task: row.task_id, attempts, retryInMs: next - now, error: outcome.error }, 'webhook delivery failed; will retry');
  }

  private async post(row: WebhookDelivery): Promise<PostOutcome> {
    let secret: string;
    try {
      secret = await this.options.secretFor(row.owner);
    } catch (error) {
      this.logger.error({ err: error, delivery: row.id }, 'no webhook signing secret');
      return { kind: 'failed', error: 'the signing secret was unavailable' };
    }
    return postWebhook({
      url: row.url,
      body: row.body,
      headers: {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'x-gengate-delivery': row.id,
        'x-gengate-signature': signWebhook(secret, row.body, Math.floor(this.now() / 1000)),
      },
      dispatcher: this.agent,
      timeoutMs: this.timeoutMs,
      signal: this.cancel.signal,
    });
  }
}
