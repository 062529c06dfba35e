/**
 * The durable task engine, assembled: the task service (submit, lookups, cancel, upstream
 * callbacks), the poller and the client-webhook dispatcher over one database. The surface
 * registry gives each family's webhook body and id look (`TaskFamilies`); the engine never
 * imports a surface.
 */
import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/types.js';
import type { TaskFamily } from '../core/task.js';
import type { CallLifecycle } from '../gateway/call-lifecycle.js';
import type { MediaStore } from '../media/media-store.js';
import type { Catalog } from '../routing/catalog.js';
import type { ChannelRegistry } from '../routing/channel-registry.js';
import type { OpenedStore } from '../store/open-store.js';
import { type NewDelivery, type StoredTask, TasksRepository } from '../store/tasks-repository.js';
import { WebhookDeliveriesRepository } from '../store/webhook-deliveries-repository.js';
import { checkCallbackUrl } from './callback-url.js';
import { TaskFinisher } from './task-finisher.js';
import type { LimitsService } from '../limits/limits-service.js';
import { taskMediaUrl } from './task-media-url.js';
import { TaskPoller } from './task-poller.js';
import { TaskService } from './task-service.js';
import { TaskTracing } from './task-tracing.js';
import type { Tracing } from '../observability/open-tracing.js';
import { WebhookDispatcher } from './webhook-dispatcher.js';
import { webhookSecretFor } from './webhook-secret.js';

/** The task families by surface name, in registry order. */
type TaskFamilies = ReadonlyMap<string, TaskFamily>;

interface TaskEngineDeps {
  config: Pick<GatewayConfig, 'media' | 'tasks'>;
  store: OpenedStore;
  registry: ChannelRegistry;
  catalog: Catalog;
  media: MediaStore;
  logger: Logger;
  families: TaskFamilies;
  /** The gateway's secret key, from which each owner's webhook signing secret is derived. */
  secretKey: () => Uint8Array;
  tickMs?: number;
}

export class TaskEngine {
  readonly repository: TasksRepository;
  readonly deliveries: WebhookDeliveriesRepository;
  readonly poller: TaskPoller;
  readonly dispatcher: WebhookDispatcher;
  private readonly finisher: TaskFinisher;
  private service?: TaskService;
  private tracing?: TaskTracing;

  constructor(private readonly deps: TaskEngineDeps) {
    const { config, store, logger } = deps;
    this.repository = new TasksRepository(store.db, store);
    this.deliveries = new WebhookDeliveriesRepository(store.db, store.dialect);
    const notify = (task: StoredTask) => this.notify(task);
    this.finisher = new TaskFinisher({
      repository: this.repository,
      media: deps.media,
      logger,
      allowPrivateUrls: config.media.allowPrivateUrls,
      maxResultBytes: config.tasks.maxResultBytes,
      downloadTimeoutMs: Math.max(config.media.fetchTimeoutMs, 60_000),
      notify,
    });
    this.poller = new TaskPoller({
      repository: this.repository,
      registry: deps.registry,
      finisher: this.finisher,
      logger,
      concurrency: config.tasks.pollConcurrency,
      claimBatch: config.tasks.claimBatch,
      tickMs: deps.tickMs,
      leaseMs: config.tasks.leaseMs,
      notify,
    });
    this.dispatcher = new WebhookDispatcher({
      repository: this.deliveries,
      secretFor: (owner) => this.webhookSecret(owner),
      allowPrivateUrls: config.media.allowPrivateUrls,
      retryHours: config.tasks.webhookRetryHours,
      logger,
      concurrency: config.tasks.webhookConcurrency,
      caps: { perTenant: config.tasks.webhookAccountConcurrency, perHost: config.tasks.webhookHostConcurrency },
      timeoutMs: config.tasks.webhookTimeoutMs,
      slowTimeoutMs: config.tasks.webhookSlowTimeoutMs,
      circuitFailures: config.tasks.webhookCircuitFailures,
      circuitCooldownMs: config.tasks.webhookCircuitCooldownMs,
    });
  }

  /** The task service on a gateway's call lifecycle (submits are admitted and routed like any call). */
  services(lifecycle: CallLifecycle): TaskService {
    const { config } = this.deps;
    this.service ??= new TaskService({
      lifecycle,
      repository: this.repository,
      registry: this.deps.registry,
      catalog: this.deps.catalog,
      media: this.deps.media,
      finisher: this.finisher,
      poller: this.poller,
      logger: this.deps.logger,
      publicBaseUrl: config.media.publicBaseUrl,
      submitLeaseMs: config.tasks.submitLeaseMs,
      checkCallbackUrl: (url, param) => void checkCallbackUrl(url, { allowPrivateUrls: config.media.allowPrivateUrls, param }),
      newTaskId: (surface) => {
        const family = this.deps.families.get(surface);
        if (!family) throw new Error(`no task family is registered for the surface ${surface}`);
        return family.newId();
      },
      notify: (task) => this.notify(task),
      tracing: () => this.tracing,
    });
    return this.service;
  }

  /**
   * Frees a task's limit holds and settles its budget reservation when it reaches a terminal
   * status on this process (a task admitted on another replica is found by its id all the same).
   */
  useLimits(limits: LimitsService): void {
    this.finisher.onEnded = (task, charged) => {
      limits
        .endTask({ id: task.id, keyId: task.owner, accountId: task.accountId, createdAt: task.createdAt }, charged)
        .catch((error: unknown) =>
          this.deps.logger.warn({ err: error, task: task.id }, 'limits: ending the holds of a task failed (they expire with its lease)'),
        );
    };
  }

  /** Traces each task's polls and finish, linked to its submit (the submit is a call, traced by the call's hooks). */
  useTracing(tracing: Tracing): void {
    this.tracing = new TaskTracing(tracing);
    this.poller.tracing = this.tracing;
    this.finisher.tracing = this.tracing;
  }

  /** The names of the task families, in registry order (the admin API's task filter). */
  get familyNames(): string[] {
    return [...this.deps.families.keys()];
  }

  /** The signing secret of an owner's webhooks (shown to the owner by `gengate keys webhook-secret`). */
  webhookSecret(owner: string): string {
    return webhookSecretFor(this.deps.secretKey(), owner);
  }

  start(): void {
    this.poller.start();
    this.dispatcher.start();
  }

  async stop(): Promise<void> {
    await Promise.all([this.poller.stop(), this.dispatcher.stop()]);
  }

  private notify(task: StoredTask): NewDelivery | undefined {
    if (!task.callback) return undefined;
    const body = this.deps.families.get(task.surface)?.notifier(task, (mediaId) => taskMediaUrl(this.deps.config.media.publicBaseUrl, task, mediaId));
    if (body === undefined) return undefined;
    this.dispatcher.wake();
    return { url: task.callback.url, body };
  }
}
