/**
 * Starts a real gateway on 127.0.0.1 (random port) for end-to-end tests, with an in-memory or
 * temporary SQLite store, the given channels, and one fresh API key.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Logger, pino } from 'pino';
import { buildApp, type GatewayApp } from '../../src/app.js';
import { createApiKey, type CreateKeyOptions } from '../../src/auth/key-admin.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { GatewayConfig, LimitSettings, MediaSettings } from '../../src/config/types.js';
import { validateChannel } from '../../src/config/validate-config.js';
import { PROVIDER_DESCRIPTORS } from '../../src/providers/registry.js';
import type { SandboxSettings } from '../../src/sandbox/sandbox-settings.js';

export interface ChannelSpec {
  name: string;
  provider: string;
  baseUrl?: string;
  apiKey?: string;
  models: string[];
  modelRewrite?: Array<{ from: string; to: string }>;
  modelMap?: Record<string, string>;
  priority?: number;
  weight?: number;
  enabled?: boolean;
  timeoutMs?: number;
  options?: Record<string, unknown>;
}

export interface StartOptions {
  channels?: ChannelSpec[];
  sandbox?: Partial<SandboxSettings>;
  masterKey?: string;
  databaseUrl?: string;
  bodyLimitBytes?: number;
  /** Server settings (timeouts, body depth) over the defaults. */
  server?: Partial<GatewayConfig['server']>;
  /** GENGATE_SECRET_KEY for stored channel credentials (default: a key generated into a temp data folder). */
  secretKey?: string;
  router?: Partial<GatewayConfig['router']>;
  media?: Partial<MediaSettings>;
  limits?: Partial<LimitSettings>;
  tasks?: Partial<GatewayConfig['tasks']>;
  /** One log line per request (default off). */
  accessLog?: boolean;
  /** `/metrics` and the timing headers (default: metrics off, headers on). */
  metrics?: Partial<GatewayConfig['metrics']>;
  key?: CreateKeyOptions;
  /** The gateway's logger (default: silent, or GENGATE_TEST_LOG's level). */
  logger?: Logger;
  /** What traces record (they are on only when the test sets the OTEL_* variables). */
  tracing?: Partial<NonNullable<GatewayConfig['tracing']>>;
  /** The time between two probes of a channel, instead of its `probe.intervalSeconds`. */
  probeIntervalMs?: number;
  /** gengate.yaml's `models:` list (catalog changes and additions). */
  models?: GatewayConfig['models'];
  /** Responses API settings over the defaults (`responses:` of gengate.yaml). */
  responses?: Partial<GatewayConfig['responses']>;
  /** Admission settings over the defaults (`admission:` of gengate.yaml). */
  admissionSettings?: Partial<GatewayConfig['admission']>;
  /** Rate limits and budgets: rules and counters (absent: none installed). */
  admission?: NonNullable<Parameters<typeof buildApp>[1]>['limits'];
}

export interface RunningGateway {
  url: string;
  /** A freshly created API key (unrestricted unless `key` said otherwise). */
  key: string;
  gateway: GatewayApp;
  createKey(options: CreateKeyOptions): Promise<string>;
  close(): Promise<void>;
}

export async function startGateway(options: StartOptions = {}): Promise<RunningGateway> {
  const base = loadConfig({ env: {}, providers: PROVIDER_DESCRIPTORS });
  const config: GatewayConfig = {
    ...base,
    server: { ...base.server, host: '127.0.0.1', port: 0, bodyLimitBytes: options.bodyLimitBytes ?? base.server.bodyLimitBytes, ...options.server },
    databaseUrl: options.databaseUrl ?? 'sqlite::memory:',
    dataDir: mkdtempSync(join(tmpdir(), 'gengate-data-')),
    secretKey: options.secretKey,
    masterKey: options.masterKey,
    accessLog: options.accessLog ?? false,
    router: { ...base.router, ...options.router },
    sandbox: { ...base.sandbox, tokensPerSecond: 1_000_000, firstTokenDelayMs: 0, ...options.sandbox },
    media: { ...base.media, dir: mkdtempSync(join(tmpdir(), 'gengate-media-')), ...options.media },
    limits: { ...base.limits, ...options.limits },
    tasks: { ...base.tasks, ...options.tasks },
    ...(options.tracing ? { tracing: { captureContent: false, contentMaxChars: 4096, ...base.tracing, ...options.tracing } } : {}),
    metrics: { ...base.metrics, ...options.metrics },
    channels: (options.channels ?? []).map((spec, i) => validateChannel(spec, `channels[${i}]`, PROVIDER_DESCRIPTORS)),
    models: options.models ?? base.models,
    admission: { ...base.admission, ...options.admissionSettings },
    responses: { ...base.responses, ...options.responses },
  };
  const gateway = await buildApp(config, {
    logger: options.logger ?? pino({ level: process.env.GENGATE_TEST_LOG ?? 'silent' }),
    limits: options.admission,
    probeIntervalMs: options.probeIntervalMs,
  });
  const address = await gateway.http.listen({ host: '127.0.0.1', port: 0 });
  const createKey = async (keyOptions: CreateKeyOptions) => (await createApiKey(gateway.keys, keyOptions)).key;
  const key = await createKey(options.key ?? { name: 'test' });
  return { url: address, key, gateway, createKey, close: () => gateway.close() };
}
