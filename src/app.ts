/**
 * Assembles the gateway: store, keys, ledger, providers, channels, router and the HTTP
 * surfaces. `buildApp` returns it ready to listen; `close` drains and flushes everything.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { KeyDirectory } from './auth/key-directory.js';
import type { ChannelDefinition, GatewayConfig } from './config/types.js';
import { parseTrustProxy, trustProxyOption } from './config/trust-proxy.js';
import { requestIds } from './http/request-ids.js';
import { installPublicUrlSettings } from './http/public-base-url.js';
import { lazyChildLoggerFactory } from './http/lazy-request-logger.js';
import { clientErrorHandler } from './http/client-errors.js';
import { frameworkErrorHandler, installEdgeErrorHandler } from './http/edge-errors.js';
import { errorFamilies } from './http/error-family.js';
import { installJsonBodyParser } from './http/json-body-parser.js';
import { installAccessLog } from './http/access-log.js';
import { installRequestRecord } from './http/request-record.js';
import { installShutdownSignal, shuttingDownError } from './http/shutdown-signal.js';
import { installRefusalAfterListenerClosed } from './http/refuse-after-listener-closed.js';
import { registerMediaRoutes } from './http/media-routes.js';
import { registerVideoDownloadRoute } from './http/video-files/video-download-route.js';
import { registerDashboardRoutes } from './http/dashboard-routes.js';
import { registerNotFound } from './http/not-found.js';
import { type ReadinessCheck, registerReadinessRoute } from './http/readiness-route.js';
import { storeNotReady } from './store/store-readiness.js';
import { serverTimeoutOptions } from './http/server-timeouts.js';
import { installBodyIdleTimeout } from './http/body-idle-timeout.js';
import { DEAD_LETTER_FILE_NAME } from './ledger/usage-dead-letters.js';
import { UsageRecorder } from './ledger/usage-recorder.js';
import { configureImageDecoding } from './media/image-decoding.js';
import { loadSharp } from './media/load-sharp.js';
import { openMediaFiles } from './media/open-media-files.js';
import type { MediaStore } from './media/media-store.js';
import { QuotaMediaStore } from './media/quota-media-store.js';
import { createLogger } from './observability/logger.js';
import { PROVIDER_DESCRIPTORS, ProviderRegistry } from './providers/registry.js';
import { allowPrivateUpstreams } from './providers/shared/upstream-connector.js';
import { Catalog } from './routing/catalog.js';
import { ChannelRegistry } from './routing/channel-registry.js';
import { ApiKeysRepository } from './store/api-keys-repository.js';
import { MediaFilesRepository } from './store/media-files-repository.js';
import { openStore, type OpenedStore } from './store/open-store.js';
import { UsageRepository } from './store/usage-repository.js';
import { createSandboxProvider } from './sandbox/index.js';
import { FALLBACK_ERROR_FAMILY, SURFACE_ERROR_FAMILIES, SURFACES, TASK_FAMILIES } from './surfaces/registry.js';
import { ChannelsRepository } from './store/channels-repository.js';
import { loadCredentialCipher, loadSecretKey, parseSecretKey } from './store/credential-cipher.js';
import type { InvalidationBus } from './store/invalidation-bus.js';
import { StoreInvalidationBus } from './store/store-invalidation-bus.js';
import { changeNotifier } from './store/open-change-notifier.js';
import type { ChangeNotifier } from './store/change-notifier.js';
import { loadStoredChannels } from './store/load-stored-channels.js';
import { LiveChannels } from './gateway/live-channels.js';
import { ChannelProber } from './gateway/channel-prober.js';
import { testRuntimeChannel } from './admin/test-channel.js';
import { LiveCatalog } from './gateway/live-catalog.js';
import { ModelOverridesRepository } from './store/model-overrides-repository.js';
import { Gateway } from './gateway/gateway.js';
import { ReasoningSeal } from './gateway/reasoning-seal.js';
import { ResponseState } from './gateway/response-state.js';
import { StoredResponsesRepository } from './store/stored-responses-repository.js';
import { RetentionSweeper } from './store/retention-sweeper.js';
import { cutRevokedCalls } from './gateway/cut-revoked-calls.js';
import { registerTaskCallbackRoute } from './http/task-callback-route.js';
import { TaskEngine } from './tasks/task-engine.js';
import { BackgroundResponseEngine } from './tasks/background-response-engine.js';
import { BackgroundResponsesRepository } from './store/background-responses-repository.js';
import { once } from './core/once.js';
import { AdminAuth } from './admin/admin-auth.js';
import { registerAdminApi } from './admin/admin-api.js';
import { AuditTrail } from './admin/audit-trail.js';
import { renderAdminError } from './admin/render-admin-error.js';
import { AccountsRepository } from './store/accounts-repository.js';
import { AuditRepository } from './store/audit-repository.js';
import { LoginFailuresRepository } from './store/login-failures-repository.js';
import { SessionsRepository } from './store/sessions-repository.js';
import type { CounterStore, RuleSource } from './limits/contract.js';
import type { LimitsService, LimitsSettings } from './limits/limits-service.js';
import { openLimits } from './limits/open-limits.js';
import { openStoredLimits } from './limits/open-stored-limits.js';
import { installRateLimitHeaders } from './limits/rate-limit-headers.js';
import { limitsHooks } from './gateway/limits-hooks.js';
import { tracingHooks } from './gateway/tracing-hooks.js';
import { openTracing, type Tracing } from './observability/open-tracing.js';
import { Observability } from './metrics/open-metrics.js';
import { readTaskQueueStats } from './store/task-queue-stats.js';
import { spentInPeriod } from './store/budget-spend.js';

export interface GatewayApp {
  config: GatewayConfig;
  http: FastifyInstance;
  services: Gateway;
  store: OpenedStore;
  keys: ApiKeysRepository;
  usage: UsageRepository;
  recorder: UsageRecorder;
  registry: ChannelRegistry;
  /** The durable task engine (image tasks, imagegen1, video). */
  tasks: TaskEngine;
  /** Channels stored in the database; publish `channels` on `invalidation` after changing them. */
  channels: ChannelsRepository;
  invalidation: InvalidationBus;
  accounts: AccountsRepository;
  audit: AuditTrail;
  /** Where media results are kept, with their owners' quotas. */
  media: MediaStore;
  /** The channels' health in this process (`snapshot()`: circuit, probes, error rate over 5 min), for metrics. */
  channelHealth: ChannelProber;
  logger: Logger;
  /** Admission of rate limits and budgets; absent when no rules source was given. */
  limits?: LimitsService;
  /** The tracer, when the `OTEL_*` variables turned traces on (closed with the app). */
  tracing?: Tracing;
  /** `http://host:port` of the metrics listener (`metrics.listen`), when there is one. */
  metricsUrl?: string;
  /**
   * `/readyz` answers 503 at once; new requests are still served for `drainDelayMs` (default 0
   * here: `gengate start` passes `server.drainDelayMs` on a signal); then stops accepting, lets
   * in-flight requests finish for `drainTimeoutMs` (default: the config's `server.drainTimeoutMs`),
   * ends them with the shutdown error, and flushes usage.
   */
  close(options?: { drainTimeoutMs?: number; drainDelayMs?: number }): Promise<void>;
  /** For an exit that cannot wait: writes the usage journal now (the next start folds it in). */
  flushForExit(): void;
}

/** After the drain deadline, how long aborted requests get to send their error before connections are cut. */
const ABORT_GRACE_MS = 5_000;
/** A probe waits at most this long (less when the channel's own timeout is shorter). */
const PROBE_TIMEOUT_MS = 15_000;

interface BuildOptions {
  logger?: Logger;
  /** Test-only: the time between two probes of a channel, instead of its `probe.intervalSeconds`. */
  probeIntervalMs?: number;
  /**
   * Rate limits and budgets (`docs/limits.md`): the rules in force and the counters. Absent: the
   * rules stored in the database and the counters `admission.*` describes. Closed with the app.
   */
  limits?: { rules: RuleSource; counters: CounterStore; settings?: Partial<LimitsSettings> };
  /**
   * What a worker of `gengate start --workers N` shares with its siblings through the primary:
   * change notices (used when no PostgreSQL or Redis notifier reaches them) and the limit
   * counters (used when no Redis holds them).
   */
  siblings?: { notifier: ChangeNotifier; counters: CounterStore };
}

export async function buildApp(config: GatewayConfig, options: BuildOptions = {}): Promise<GatewayApp> {
  const logger = options.logger ?? createLogger(config.logLevel);
  // Checked again before anything opens: a configuration built in code (tests, embedders) skips loadConfig.
  const trustProxy = parseTrustProxy(config.server.trustProxy);
  const store = await openStore(config.databaseUrl);
  const keys = new ApiKeysRepository(store.db);
  const usage = new UsageRepository(store.db, store.sqlite, store.dialect);
  // Changes by other processes on the same database (revoked keys, edited channels) arrive by notice (Redis or PostgreSQL), else within a poll.
  const notifier = changeNotifier(config, store, logger) ?? options.siblings?.notifier;
  const invalidation = new StoreInvalidationBus(store.db, { logger, notifier });
  await invalidation.start();
  const directory = new KeyDirectory(keys, config.masterKey, { bus: invalidation });
  await directory.start();
  // An in-memory database ends with the process: nothing to recover, so nothing to journal.
  const journalDir = config.databaseUrl === 'sqlite::memory:' ? undefined : join(config.dataDir, 'usage-journal');
  const observability = new Observability(config.metrics);
  const recorder = new UsageRecorder(observability.timeInserts(usage), logger, { journalDir, deadLetterFile: join(config.dataDir, DEAD_LETTER_FILE_NAME) });
  await recorder.recover();
  recorder.start();

  const catalog = Catalog.withOverrides(config.models);
  const providers = new ProviderRegistry([createSandboxProvider(config.sandbox)]);
  const loadProviders = (definitions: readonly ChannelDefinition[]) => providers.load(definitions.map((definition) => definition.provider));
  // Every adapter is loaded at start (the short CLI commands never come here), so that a channel
  // stored at runtime goes in force without waiting for its provider's modules.
  await providers.load(PROVIDER_DESCRIPTORS.map((descriptor) => descriptor.name));
  const registry = new ChannelRegistry({ providers, catalog, sandboxFallback: config.sandbox.enabled }, config.channels);
  const channels = new ChannelsRepository(store.db, () => loadCredentialCipher(config));
  const liveChannels = new LiveChannels(
    registry,
    { configured: config.channels, stored: () => loadStoredChannels(channels, PROVIDER_DESCRIPTORS), prepare: loadProviders },
    invalidation,
    logger,
  );
  // Model overrides stored through the admin API: in force from the start, reloaded on every `catalog` invalidation.
  const modelOverrides = new ModelOverridesRepository(store.db);
  const liveCatalog = new LiveCatalog(
    catalog,
    { configured: config.models, stored: async () => (await modelOverrides.list()).map((row) => row.override) },
    invalidation,
    () => liveChannels.reload(),
    logger,
  );
  try {
    await liveCatalog.start();
    // A stored channel that cannot be decrypted (another GENGATE_SECRET_KEY) stops the start here.
    await liveChannels.start();
  } catch (error) {
    directory.stop();
    liveCatalog.stop();
    await invalidation.close().catch(() => undefined);
    await recorder.close().catch(() => undefined);
    await store.close().catch(() => undefined);
    throw error;
  }
  const retentionMs = config.media.retentionHours * 3_600_000;
  const mediaFiles = await openMediaFiles(config.media, config.dataDir);
  const media = new QuotaMediaStore({
    files: mediaFiles.files,
    index: new MediaFilesRepository(store.db),
    settings: { ...config.media, retentionMs },
    onEvicted: (files, bytes) => logger.info({ files, bytes }, 'media store at its cap (media.maxTotalBytes): evicted the oldest files'),
  });
  media.start();
  configureImageDecoding({ maxPixels: config.media.maxImagePixels });
  allowPrivateUpstreams(config.router.allowPrivateBaseUrls);
  if (config.sandbox.enabled) await loadSharp();
  const secretKey = once(() => loadSecretKey({ secretKey: config.secretKey, dataDir: config.dataDir }));
  const engine = new TaskEngine({
    config,
    store,
    registry,
    catalog,
    media,
    logger,
    secretKey,
    families: TASK_FAMILIES,
  });
  // Background responses (`background: true`): durable leased runs, re-run after a crash; the lease is the task engine's.
  const background = new BackgroundResponseEngine({
    repository: new BackgroundResponsesRepository(store.db, store.dialect),
    logger,
    leaseMs: config.tasks.leaseMs,
    revocationOf: (key) => (key.isMaster ? undefined : directory.revocationOf(key)),
  });
  // Conversation state of the Responses API; its sealed reasoning under a key derived from the same secret as stored credentials.
  const storedResponses = new StoredResponsesRepository(store.db);
  const responses = new ResponseState({
    repository: storedResponses,
    seal: once(
      () =>
        new ReasoningSeal(
          secretKey(),
          (config.previousSecretKeys ?? []).map((text, i) => parseSecretKey(text, `GENGATE_SECRET_KEY_PREVIOUS (key ${i + 1})`)),
        ),
    ),
    retentionSeconds: config.responses.retentionDays * 86_400,
    maxStoredBytesPerOwner: config.responses.maxStoredMiBPerAccount * 1024 * 1024,
    onSweepError: (error) => logger.warn({ err: error }, 'stored responses sweep failed'),
  });
  const services = new Gateway({
    config,
    authenticate: (presented) => directory.authenticate(presented),
    registry,
    catalog,
    recorder,
    media,
    tasks: (lifecycle) => engine.services(lifecycle),
    background,
    responses,
  });
  // Clients are told only "internal error" (a stream's error event has no request to log it with): the detail goes here.
  services.lifecycle.use({
    end: (call, ending) => {
      if (ending.error?.kind !== 'internal') return;
      logger.error(
        { err: ending.error.cause ?? ending.error, requestId: call.subject.requestId, errorType: ending.errorType },
        'call ended by an internal error',
      );
    },
  });
  // Traces only when the OTEL_* variables ask for them: otherwise no hook, no SDK loaded.
  const tracing = await openTracing(process.env, config.tracing);
  if (tracing) services.lifecycle.use(tracingHooks(tracing));
  if (tracing) engine.useTracing(tracing);
  let audit: AuditTrail | undefined;
  // Channel health: probes of the channels that ask for them (no timer when none does), and every attempt's outcome.
  const configuredNames = new Set(config.channels.map((channel) => channel.name));
  const prober = new ChannelProber({
    registry,
    breaker: services.lifecycle.breaker,
    logger,
    intervalMs: options.probeIntervalMs,
    probe: (channel) =>
      testRuntimeChannel(channel, { catalog, requestId: `probe_${randomUUID()}`, timeoutMs: Math.min(channel.config.timeoutMs, PROBE_TIMEOUT_MS) }),
    switchChannel: async (name, enabled, details) => {
      // Configured channels are the file's: only stored ones are switched.
      if (configuredNames.has(name) || !(await channels.setEnabledByGateway(name, enabled))) return false;
      invalidation.publish('channels');
      await audit?.write(undefined, null, enabled ? 'channel.auto_enable' : 'channel.auto_disable', name, details);
      return true;
    },
  });
  services.lifecycle.use(prober.hooks);
  prober.start();
  // Limits and budgets are always in place: with no rule stored the admit hook returns at once, and a rule set through the admin API applies within a notice.
  const limitParts = options.limits ?? (await openStoredLimits(config, store, invalidation, logger, options.siblings?.counters));
  const limits = openLimits({
    ...limitParts,
    settings: { ...limitParts.settings, allowUnpriced: config.admission.allowUnpriced },
    priceOf: (model) => catalog.priceOf(model),
    spentInPeriod: (rule, start, end) => spentInPeriod(store.db, rule.scope, rule.subject, start, end),
    onSoftThreshold: (rule, label, spentNusd) => {
      audit?.write(undefined, null, 'budget.soft_threshold', rule.id, { label, spentNusd }).catch((error: unknown) => {
        logger.warn({ err: error }, 'audit entry of a budget warning not written');
      });
    },
    warn: (detail, message) => logger.warn(detail, message),
  });
  const admission = limitsHooks(limits, logger);
  services.lifecycle.use(admission);
  engine.useLimits(limits);
  engine.start();
  responses.start();
  const retention = new RetentionSweeper(store.db, config.retention, { logger });
  retention.start();
  if (config.limits.cutOnRevoke) {
    cutRevokedCalls(services.lifecycle, directory, (count) => logger.info({ count }, 'in-flight calls of a revoked key or disabled account cut'));
  }

  // Which error shape a request no surface route answered gets: the surfaces' families, and the admin API's.
  const errorShapes = errorFamilies([...SURFACE_ERROR_FAMILIES, { name: 'admin', pathPrefixes: ['/admin'], render: renderAdminError }], FALLBACK_ERROR_FAMILY);
  const nextRequestId = requestIds();
  const http: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Fastify's own per-request lines are off: the access log below writes one line without the query string (Gemini keys ride in `?key=`).
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyChildLoggerFactory,
    bodyLimit: config.server.bodyLimitBytes,
    // Only the admin API declares JSON schemas: an unknown field there is an error, not dropped.
    ajv: { customOptions: { removeAdditional: false } },
    trustProxy: trustProxyOption(trustProxy),
    genReqId: nextRequestId,
    requestIdHeader: false,
    forceCloseConnections: 'idle',
    // Refused in the surface's error shape instead (installRefusalAfterListenerClosed).
    return503OnClosing: false,
    ...serverTimeoutOptions(config.server),
    clientErrorHandler: clientErrorHandler(errorShapes, nextRequestId),
    frameworkErrors: frameworkErrorHandler(errorShapes),
  });
  // Every request carries its record (error type, call clock): the features read it from the request or its calls.
  installRequestRecord(http);
  const shutdown = installShutdownSignal(http);
  installPublicUrlSettings(http, { publicBaseUrl: config.media.publicBaseUrl, allowedHosts: config.server.allowedHosts });
  installJsonBodyParser(http, config.server.maxBodyDepth);
  installEdgeErrorHandler(http, errorShapes);
  installBodyIdleTimeout(http, config.server.bodyIdleTimeoutMs);
  // Anthropic's callers read `anthropic-ratelimit-*`; every other dialect gets OpenAI's `x-ratelimit-*`; the admin API none.
  installRateLimitHeaders(http, limits, (request) => {
    const family = errorShapes.familyOf(request.url, request.headers);
    return family === 'admin' ? undefined : family === 'anthropic' ? 'anthropic' : 'openai';
  });
  http.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  let listenerClosed = false;
  installRefusalAfterListenerClosed(http, errorShapes, () => listenerClosed);
  if (config.accessLog) installAccessLog(http);
  await observability.install({
    http,
    lifecycle: services.lifecycle,
    isCatalogModel: (model) => catalog.get(model) !== undefined,
    isChannel: (name) => registry.current().channel(name) !== undefined,
    channels: () => registry.channels.map((channel) => channel.name),
    recorder,
    webhookFailures: () => engine.dispatcher.failures,
    queueStats: (now) => readTaskQueueStats(store.db, now),
    probes: () =>
      prober
        .snapshot()
        .flatMap((health) => (health.probeOk === null ? [] : [{ channel: health.name, ok: health.probeOk, latencyMs: health.lastProbeLatencyMs }])),
    logger,
  });
  http.get('/healthz', async () => ({ status: 'ok' }));
  let draining = false;
  const readiness: ReadinessCheck[] = [
    { name: 'store', check: () => storeNotReady(store) },
    { name: 'media', check: mediaFiles.notReady },
  ];
  // The counters' Redis, when replicas share one: budgets fail closed without it.
  if (config.redisUrl)
    readiness.push({
      name: 'redis',
      check: async () => {
        const health = await limitParts.counters.health();
        return health.ok ? undefined : (health.detail ?? 'not answering');
      },
    });
  registerReadinessRoute(http, { checks: readiness, draining: () => draining });
  for (const surface of SURFACES) await http.register(async (scope) => surface.register(scope, services));
  registerMediaRoutes(http, media, errorShapes);
  registerVideoDownloadRoute(http, { authenticate: (presented) => services.authenticate(presented), tasks: services.tasks, render: errorShapes.fallback });
  const accounts = new AccountsRepository(store.db);
  const sessions = new SessionsRepository(store.db);
  audit = new AuditTrail(new AuditRepository(store.db));
  const adminAuth = new AdminAuth({ accounts, sessions, loginFailures: new LoginFailuresRepository(store.db), keys, keyDirectory: directory, secretKey });
  await registerAdminApi(http, {
    config,
    store,
    db: store.db,
    logger,
    auth: adminAuth,
    audit,
    accounts,
    sessions,
    keys,
    keyDirectory: directory,
    usage,
    channels,
    liveChannels,
    registry,
    prober,
    providers,
    catalog,
    invalidation,
    tasks: engine,
    services,
    media,
    counters: limitParts.counters,
  });
  const sweepSessions = setInterval(() => adminAuth.sweep().catch((error: unknown) => logger.warn({ err: error }, 'session sweep failed')), 10 * 60_000);
  sweepSessions.unref();
  registerDashboardRoutes(http, { dir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)) });
  registerTaskCallbackRoute(http, (token, headers, body) => engine.services(services.lifecycle).wake(token, headers, body));
  registerNotFound(http, errorShapes);
  // After the surfaces registered: the Responses surface's runner is in place before any run is claimed.
  background.start();

  let closing: Promise<void> | undefined;
  const drain = async (drainTimeoutMs: number, drainDelayMs: number): Promise<void> => {
    draining = true;
    // The balancer's own delay in noticing: what it still sends meanwhile is served, not refused.
    if (drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, drainDelayMs));
    listenerClosed = true;
    let grace: NodeJS.Timeout | undefined;
    const deadline = setTimeout(() => {
      logger.warn({ inFlight: recorder.openCalls, drainTimeoutMs }, 'drain deadline passed: ending in-flight requests');
      shutdown.abort(shuttingDownError());
      grace = setTimeout(() => http.server.closeAllConnections(), ABORT_GRACE_MS);
    }, drainTimeoutMs);
    // A keep-alive connection whose request finished would hold the server open until the client drops it.
    const idle = setInterval(() => http.server.closeIdleConnections(), 100);
    try {
      await http.close();
    } finally {
      clearTimeout(deadline);
      clearTimeout(grace);
      clearInterval(idle);
    }
  };
  return {
    config,
    http,
    services,
    store,
    keys,
    usage,
    recorder,
    registry,
    tasks: engine,
    channels,
    invalidation,
    accounts,
    audit,
    media,
    channelHealth: prober,
    logger,
    limits,
    tracing,
    metricsUrl: observability.listenUrl,
    close(closeOptions = {}) {
      closing ??= (async () => {
        await drain(closeOptions.drainTimeoutMs ?? config.server.drainTimeoutMs, closeOptions.drainDelayMs ?? 0);
        prober.stop();
        await observability.close();
        admission.stop();
        clearInterval(sweepSessions);
        responses.stop();
        await retention.stop();
        await invalidation.close();
        directory.stop();
        liveChannels.stop();
        liveCatalog.stop();
        await engine.stop();
        await background.stop();
        await media.close();
        await recorder.close();
        limitParts.rules.stop?.();
        await limitParts.counters.close();
        await store.close();
        await tracing?.shutdown().catch((error: unknown) => logger.warn({ err: error }, 'traces: the last spans could not be sent'));
      })();
      return closing;
    },
    flushForExit() {
      recorder.flushJournalSync();
    },
  };
}
