/**
 * Sends the client-webhook outbox. On a short interval (and whenever the engine calls `wake()`
 * after enqueueing) it claims due deliveries under a lease, POSTs each signed with the owner's
 * secret, at most `concurrency` at a time and each bounded in time. A 2xx answer delivers;
 * anything else is retried with growing delays until `retryHours` after the delivery was
 * enqueued, then the delivery is dead. At-least-once: a gateway stopping mid-POST leaves the
 * lease to run out, and the delivery is sent again; receivers dedupe on `x-gengate-delivery`.
 *
 * One tenant's slow or failing receiver costs that tenant, not everyone: claims go round-robin
 * across tenants and stop at `caps` deliveries in flight per tenant and per receiver host (over
 * every process on the database), a receiver that keeps timing out gets a shorter timeout, and
 * one that keeps failing has its deliveries deferred without connecting (`WebhookReceiverHealth`).
 */
import { Agent } from 'undici';
import type { Logger } from 'pino';
import { IdleBackoffTimer } from '../core/idle-backoff-timer.js';
import { guardedLookup } from '../media/guarded-fetch.js';
import { type ClaimCaps, receiverHostOf, type WebhookDeliveriesRepository, type WebhookDelivery } from '../store/webhook-deliveries-repository.js';
import { callbackUrlProblem } from './callback-url.js';
import { postWebhook, type PostOutcome } from './post-webhook.js';
import { DEFAULT_WEBHOOK_BACKOFF, type WebhookBackoff, webhookRetryDelayMs } from './webhook-backoff.js';
import { receiverKey, type ReceiverVerdict, WebhookReceiverHealth } from './webhook-receiver-health.js';
import { signWebhook } from './webhook-signature.js';

type WebhookQueue = Pick<WebhookDeliveriesRepository, 'claimDue' | 'markDelivered' | 'reschedule' | 'markDead' | 'deferReceiver'>;

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
  /** Deliveries in flight at once per tenant and per receiver host, over every process (default 4 and 8). */
  caps?: ClaimCaps;
  /** One POST, answer included (default 10 s). */
  timeoutMs?: number;
  /** The timeout of a receiver that timed out three times in a row, until it answers again (default 2 s). */
  slowTimeoutMs?: number;
  /** Failures in a row that open a receiver's circuit (default 5). */
  circuitFailures?: number;
  /** How long an open circuit defers its receiver's deliveries before a trial (default 30 s, doubling per failed trial up to 10 min). */
  circuitCooldownMs?: number;
  backoff?: WebhookBackoff;
  /** How long a claimed delivery is ours (default 60 s); must outlast `timeoutMs`. */
  leaseMs?: number;
  /** How long `stop()` waits for deliveries in flight before cancelling them (default timeout + 1 s). */
  stopTimeoutMs?: number;
}

const USER_AGENT = 'gengate-webhooks';
const SLOW_AFTER_TIMEOUTS = 3;
const MAX_CIRCUIT_COOLDOWN_MS = 10 * 60_000;
/** Receivers whose health is remembered (the least recently seen is forgotten first). */
const MAX_RECEIVERS = 10_000;

export class WebhookDispatcher {
  private readonly repository: WebhookQueue;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly concurrency: number;
  private readonly caps: ClaimCaps;
  private readonly health: WebhookReceiverHealth;
  private readonly timeoutMs: number;
  private readonly leaseMs: number;
  private readonly stopTimeoutMs: number;
  private readonly backoff: WebhookBackoff;
  private readonly agent: Agent;
  private readonly cancel = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timer: IdleBackoffTimer;
  /** Since the start, for the metrics: delivery attempts that failed, and deliveries given up (dead). */
  readonly failures = { attempts: 0, abandoned: 0 };
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
    this.caps = options.caps ?? { perTenant: 4, perHost: 8 };
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.health = new WebhookReceiverHealth({
      timeoutMs: this.timeoutMs,
      slowTimeoutMs: Math.min(options.slowTimeoutMs ?? 2_000, this.timeoutMs),
      slowAfterTimeouts: SLOW_AFTER_TIMEOUTS,
      circuitFailures: options.circuitFailures ?? 5,
      circuitCooldownMs: options.circuitCooldownMs ?? 30_000,
      maxCooldownMs: Math.max(MAX_CIRCUIT_COOLDOWN_MS, options.circuitCooldownMs ?? 0),
      maxReceivers: MAX_RECEIVERS,
    });
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
    const rows = await this.repository.claimDue(this.now(), free, this.leaseMs, this.caps);
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
      this.failures.abandoned++;
      await this.repository.markDead(row.id, `refused: the URL ${refused}`);
      this.logger.warn({ delivery: row.id, task: row.task_id }, 'webhook URL refused');
      return;
    }
    const host = row.host ?? receiverHostOf(row.url);
    const receiver = receiverKey(row.owner, host);
    const admission = this.health.admit(receiver, this.now());
    if (!admission.send) return this.defer(row, host, admission.retryAt);
    const outcome = await this.post(row, admission.timeoutMs);
    if (outcome.kind === 'aborted' || outcome.kind === 'refused') this.health.release(receiver);
    if (outcome.kind === 'aborted') return;
    const now = this.now();
    const attempts = row.attempts + 1;
    if (outcome.kind === 'delivered') {
      this.health.record(receiver, 'delivered', now);
      await this.repository.markDelivered(row.id, now);
      this.logger.debug({ delivery: row.id, task: row.task_id, attempts, status: outcome.status }, 'webhook delivered');
      return;
    }
    this.failures.attempts++;
    if (outcome.kind === 'refused') {
      this.failures.abandoned++;
      await this.repository.markDead(row.id, `refused: ${outcome.error}`, attempts);
      this.logger.warn({ delivery: row.id, task: row.task_id }, 'webhook URL refused');
      return;
    }
    if (outcome.reason === 'secret') this.health.release(receiver);
    else if (this.health.record(receiver, VERDICT[outcome.reason], now)) {
      this.logger.warn(
        { owner: row.owner, host, error: outcome.error },
        "a webhook receiver keeps failing; its owner's deliveries to it wait without connecting",
      );
    }
    const giveUpAt = this.giveUpAt(row);
    const next = now + webhookRetryDelayMs(attempts, this.backoff);
    if (next > giveUpAt) {
      this.failures.abandoned++;
      await this.repository.markDead(row.id, `gave up after ${attempts} attempts over ${this.options.retryHours} h; last: ${outcome.error}`, attempts);
      this.logger.warn({ delivery: row.id, task: row.task_id, attempts, error: outcome.error }, 'webhook delivery abandoned');
      return;
    }
    await this.repository.reschedule(row.id, attempts, next, outcome.error);
    this.timer.runBy(Date.now() + (next - now));
    this.logger.info({ delivery: row.id, task: row.task_id, attempts, retryInMs: next - now, error: outcome.error }, 'webhook delivery failed; will retry');
  }

  /** The receiver's circuit is open: this delivery, and the owner's others due to that host, wait until `retryAt` without an attempt. */
  private async defer(row: WebhookDelivery, host: string, retryAt: number): Promise<void> {
    if (retryAt > this.giveUpAt(row)) {
      this.failures.abandoned++;
      const last = row.last_error ? `; last: ${row.last_error}` : '';
      await this.repository.markDead(row.id, `gave up after ${row.attempts} attempts over ${this.options.retryHours} h; the receiver kept failing${last}`);
      this.logger.warn({ delivery: row.id, task: row.task_id, attempts: row.attempts }, 'webhook delivery abandoned');
      return;
    }
    const now = this.now();
    await this.repository.deferReceiver(row.id, row.owner, host, now, retryAt);
    this.timer.runBy(Date.now() + (retryAt - now));
    this.logger.debug({ delivery: row.id, task: row.task_id, host, retryInMs: retryAt - now }, 'webhook receiver failing; delivery deferred');
  }

  private giveUpAt(row: WebhookDelivery): number {
    return row.created_at + this.options.retryHours * 3_600_000;
  }

  private async post(row: WebhookDelivery, timeoutMs: number): Promise<PostOutcome | { kind: 'failed'; reason: 'secret'; error: string }> {
    let secret: string;
    try {
      secret = await this.options.secretFor(row.owner);
    } catch (error) {
      this.logger.error({ err: error, delivery: row.id }, 'no webhook signing secret');
      return { kind: 'failed', reason: 'secret', error: 'the signing secret was unavailable' };
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
      timeoutMs,
      signal: this.cancel.signal,
    });
  }
}

const VERDICT: Record<'timeout' | 'unreachable' | 'status', ReceiverVerdict> = { timeout: 'timed-out', unreachable: 'unreachable', status: 'answered-error' };
