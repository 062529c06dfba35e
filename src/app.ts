/**
 * Assembles the gateway: store, keys, ledger, providers, channels, router and the HTTP
 * surfaces. `buildApp` returns it ready to listen; `close` drains and flushes everything.
 */
import { join } from 'node:path';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { KeyDirectory } from './auth/key-directory.js';
import type { GatewayConfig } from './config/types.js';
import { requestIds } from './http/request-ids.js';
import { installJsonBodyParser } from './http/json-body-parser.js';
import { registerMediaRoutes } from './http/media-routes.js';
import { registerModelRoutes } from './http/model-routes.js';
import { registerNotFound } from './http/not-found.js';
import { UsageRecorder } from './ledger/usage-recorder.js';
import { configureImageDecoding } from './media/image-decoding.js';
import { LocalMediaStore } from './media/local-media-store.js';
import { createLogger } from './observability/logger.js';
import { ProviderRegistry } from './providers/registry.js';
import { Catalog } from './routing/catalog.js';
import { ChannelRegistry } from './routing/channel-registry.js';
import { ChatService } from './routing/chat-service.js';
import { CircuitBreaker } from './routing/circuit-breaker.js';
import { EmbedService } from './routing/embed-service.js';
import { ImageService } from './routing/image-service.js';
import { listModels } from './routing/list-models.js';
import { ApiKeysRepository } from './store/api-keys-repository.js';
import { openStore, type OpenedStore } from './store/open-store.js';
import { UsageRepository } from './store/usage-repository.js';
import { anthropicSurface } from './surfaces/anthropic/index.js';
import { geminiSurface } from './surfaces/gemini/index.js';
import { imagegen2Surface } from './surfaces/imagegen2/index.js';
import { openaiSurface } from './surfaces/openai/index.js';
import type { GatewayServices } from './surfaces/types.js';

export interface Gateway {
  config: GatewayConfig;
  http: FastifyInstance;
  services: GatewayServices;
  store: OpenedStore;
  keys: ApiKeysRepository;
  usage: UsageRepository;
  recorder: UsageRecorder;
  registry: ChannelRegistry;
  logger: Logger;
  close(): Promise<void>;
}

export interface BuildOptions {
  logger?: Logger;
}

export async function buildApp(config: GatewayConfig, options: BuildOptions = {}): Promise<Gateway> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const store = await openStore(config.databaseUrl);
  const keys = new ApiKeysRepository(store.db);
  const usage = new UsageRepository(store.db, store.sqlite);
  const directory = new KeyDirectory(keys, config.masterKey);
  await directory.start();
  const recorder = new UsageRecorder(usage, logger);
  recorder.start();

  const catalog = new Catalog();
  const providers = new ProviderRegistry(config.sandbox);
  const registry = new ChannelRegistry(config, providers, catalog);
  const breaker = new CircuitBreaker(config.router.failureThreshold, config.router.cooldownMs);
  const routerDeps = { registry, breaker, catalog, recorder, maxAttempts: config.router.maxAttempts };
  const chat = new ChatService(routerDeps, config.limits.maxDocumentBytes);
  const embed = new EmbedService(routerDeps);
  const media = new LocalMediaStore(config.media.dir ?? join(config.dataDir, 'media'), config.media.retentionHours * 3_600_000);
  media.start();
  const images = new ImageService(routerDeps, media, config.media);
  configureImageDecoding({ maxPixels: config.media.maxImagePixels });
  const services: GatewayServices = {
    authenticate: (presented) => directory.authenticate(presented),
    chat: (call) => chat.chat(call),
    listModels: (key) => listModels(catalog, registry, key),
    embed: (call) => embed.embed(call),
    images: (call) => images.images(call),
    fetchImage: (url, param, signal) => images.fetchImage(url, param, signal),
    imageLimits: { maxBytes: config.media.maxImageBytes, maxPixels: config.media.maxImagePixels },
  };

  const http: FastifyInstance = Fastify({
    loggerInstance: logger as FastifyBaseLogger,
    // Fastify's own per-request lines are off: the access log below writes one line without the query string (Gemini keys ride in `?key=`).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.server.bodyLimitBytes,
    trustProxy: config.server.trustProxy,
    genReqId: requestIds(),
    requestIdHeader: false,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  installJsonBodyParser(http);
  http.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  if (config.accessLog) {
    http.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        { method: request.method, url: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
        'request',
      );
      done();
    });
  }
  http.get('/healthz', async () => ({ status: 'ok' }));
  for (const surface of [openaiSurface, anthropicSurface, geminiSurface, imagegen2Surface]) {
    await http.register(async (scope) => surface.register(scope, services));
  }
  await http.register(async (scope) => registerModelRoutes(scope, services));
  registerMediaRoutes(http, media);
  registerNotFound(http);

  let closed = false;
  return {
    config,
    http,
    services,
    store,
    keys,
    usage,
    recorder,
    registry,
    logger,
    async close() {
      if (closed) return;
      closed = true;
      await http.close();
      directory.stop();
      await media.close();
      await recorder.close();
      await store.close();
    },
  };
}
