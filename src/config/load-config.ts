/**
 * Builds the gateway configuration: embedded defaults, then the YAML file (if any), then the
 * environment. Channels come from the YAML `channels:` list and from the environment presets
 * of the providers the caller hands in (OPENAI_API_KEY, ANTHROPIC_API_KEY, … and their _BASE_URL):
 * the composition root passes `providers/registry.ts`'s list, so `config/` loads no provider.
 */
import { DEFAULT_TRACING_SETTINGS, type TracingSettings } from '../observability/tracing-settings.js';
import { parseWorkers } from './workers-setting.js';
import { parseMetricsSettings } from './metrics-settings.js';
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { ProviderDescriptor } from '../providers/types.js';
import { parseAllowedHosts } from './allowed-hosts.js';
import { channelsFromEnv, type Env } from './channels-from-env.js';
import { ConfigError } from './config-error.js';
import { checkedPreviousKeys, secretKeySetting } from './secret-key-setting.js';
import { DEFAULT_CONFIG } from './defaults.js';
import { resolveMediaStoreSettings } from './media-store-settings.js';
import { applyModelOverrides, parseModelOverrides, shippedModelCatalog } from './load-model-catalog.js';
import type { GatewayConfig } from './types.js';
import { parseTrustProxy } from './trust-proxy.js';
import { validateChannel } from './validate-config.js';

export { ConfigError };

const WEBHOOK_POSITIVE_INTS = [
  'webhookConcurrency',
  'webhookAccountConcurrency',
  'webhookHostConcurrency',
  'webhookTimeoutMs',
  'webhookSlowTimeoutMs',
  'webhookCircuitFailures',
  'webhookCircuitCooldownMs',
] as const;

/** Ten years: longer would be forever in all but name. */
/** A hundred years: past it a retention is surely a typo. */
const MAX_RETENTION_DAYS = 36_500;
const MAX_RESPONSE_RETENTION_DAYS = 3650;
/** 1 TiB: far above any sane cap, and still a safe integer of bytes. */
const MAX_STORED_MIB_PER_ACCOUNT = 1024 * 1024;

function intFromEnv(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

function nonNegativeInt(value: unknown, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new ConfigError(`${where} must be a non-negative integer`);
  return value;
}

/** `GENGATE_PORT` wins over `PORT` (which hosting platforms set), both over the file. */
function portFrom(env: Env, file: unknown): number | undefined {
  for (const name of ['GENGATE_PORT', 'PORT']) {
    const raw = env[name]?.trim();
    if (raw === undefined || raw === '') continue;
    return checkPort(/^\d+$/.test(raw) ? Number(raw) : Number.NaN, `${name}="${raw}"`);
  }
  return file === undefined ? undefined : checkPort(file, `server.port ${JSON.stringify(file)}`);
}

function checkPort(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 65535) {
    throw new ConfigError(`${what} is not a port: use a whole number from 0 to 65535`);
  }
  return value;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function checkLogLevel(value: unknown, where: string): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string' || !LOG_LEVELS.includes(value))
    throw new ConfigError(`${where}: unknown log level ${JSON.stringify(value)}, use one of ${LOG_LEVELS.join(', ')}`);
  return value;
}

function checkLogFormat(value: unknown, where: string): 'json' | 'pretty' | undefined {
  if (value === undefined || value === '') return undefined;
  if (value !== 'json' && value !== 'pretty') throw new ConfigError(`${where}: unknown log format ${JSON.stringify(value)}, use json or pretty`);
  return value;
}

/** `GENGATE_SECRET_KEY_PREVIOUS` (comma-separated) or the file's `previousSecretKeys` list. */
function previousSecretKeys(fromEnv: string | undefined, fromFile: unknown): string[] {
  if (fromEnv)
    return fromEnv
      .split(',')
      .map((key) => key.trim())
      .filter(Boolean);
  if (fromFile === undefined || fromFile === null) return [];
  if (!Array.isArray(fromFile) || fromFile.some((key) => typeof key !== 'string')) throw new ConfigError('previousSecretKeys must be a list of keys');
  return fromFile as string[];
}

function asRecord(value: unknown, where: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`${where} must be a mapping`);
  return value as Record<string, unknown>;
}

/** Replaces `${VAR}` in YAML string values with the environment's value, so secrets stay out of files. */
function expandEnv(value: unknown, env: Env): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Z0-9_]+)\}/g, (_, name: string) => env[name] ?? '');
  }
  if (Array.isArray(value)) return value.map((v) => expandEnv(v, env));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandEnv(v, env)]));
  }
  return value;
}

type ServerIntSetting = 'maxBodyDepth' | 'headersTimeoutMs' | 'requestTimeoutMs' | 'bodyIdleTimeoutMs' | 'keepAliveTimeoutMs' | 'connectionTimeoutMs';

/** A whole-number `server.<name>` of at least `min`, or its default. */
function serverInt(server: Record<string, unknown>, name: ServerIntSetting, min: number): number {
  const value = server[name];
  if (value === undefined || value === null) return DEFAULT_CONFIG.server[name];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new ConfigError(`server.${name} must be a whole number ≥ ${min}`);
  }
  return value;
}

interface LoadOptions {
  env?: Env;
  /** Path of the YAML file; defaults to GENGATE_CONFIG or ./gengate.yaml when it exists. */
  configPath?: string;
  /** Values that win over file and environment (tests, CLI flags). */
  overrides?: Partial<GatewayConfig>;
  /** The providers channels may name (the composition root passes the registered ones). */
  providers: readonly ProviderDescriptor[];
}

export function loadConfig(options: LoadOptions): GatewayConfig {
  const env = options.env ?? process.env;
  const { providers } = options;
  const sources: string[] = ['embedded defaults'];
  const explicitPath = options.configPath ?? env.GENGATE_CONFIG;
  const path = explicitPath ?? (existsSync('gengate.yaml') ? 'gengate.yaml' : undefined);
  let file: Record<string, unknown> = {};
  if (path) {
    if (!existsSync(path)) throw new ConfigError(`configuration file not found: ${path}`);
    try {
      file = asRecord(expandEnv(parseYaml(readFileSync(path, 'utf8')), env), path);
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      // The YAML parser's messages carry a multi-line excerpt of the file; the first line names the problem and where.
      throw new ConfigError(`${path}: ${(error as Error).message.split('\n')[0].replace(/:$/, '')}`);
    }
    sources.push(path);
  }

  const server = asRecord(file.server, 'server');
  const router = asRecord(file.router, 'router');
  const sandbox = asRecord(file.sandbox, 'sandbox');
  const media = asRecord(file.media, 'media');
  const limits = asRecord(file.limits, 'limits');
  const tasks = asRecord(file.tasks, 'tasks');
  const responses = asRecord(file.responses, 'responses');
  const retention = asRecord(file.retention, 'retention');
  const admission = asRecord(file.admission, 'admission');
  const tracing = asRecord(file.tracing, 'tracing');
  const metrics = parseMetricsSettings(asRecord(file.metrics, 'metrics'), env);
  const config: GatewayConfig = {
    server: {
      host: env.GENGATE_HOST ?? (server.host as string | undefined) ?? DEFAULT_CONFIG.server.host,
      port: portFrom(env, server.port) ?? DEFAULT_CONFIG.server.port,
      bodyLimitBytes: intFromEnv(env, 'GENGATE_BODY_LIMIT') ?? (server.bodyLimitBytes as number | undefined) ?? DEFAULT_CONFIG.server.bodyLimitBytes,
      maxBodyDepth: serverInt(server, 'maxBodyDepth', 1),
      trustProxy: env.GENGATE_TRUST_PROXY ? parseTrustProxy(env.GENGATE_TRUST_PROXY, 'GENGATE_TRUST_PROXY') : parseTrustProxy(server.trustProxy),
      allowedHosts: env.GENGATE_ALLOWED_HOSTS ? parseAllowedHosts(env.GENGATE_ALLOWED_HOSTS, 'GENGATE_ALLOWED_HOSTS') : parseAllowedHosts(server.allowedHosts),
      headersTimeoutMs: serverInt(server, 'headersTimeoutMs', 1),
      requestTimeoutMs: serverInt(server, 'requestTimeoutMs', 1),
      bodyIdleTimeoutMs: serverInt(server, 'bodyIdleTimeoutMs', 0),
      keepAliveTimeoutMs: serverInt(server, 'keepAliveTimeoutMs', 1),
      connectionTimeoutMs: serverInt(server, 'connectionTimeoutMs', 0),
      drainTimeoutMs:
        intFromEnv(env, 'GENGATE_DRAIN_TIMEOUT_MS') ?? nonNegativeInt(server.drainTimeoutMs, 'server.drainTimeoutMs') ?? DEFAULT_CONFIG.server.drainTimeoutMs,
      ...(env.GENGATE_WORKERS !== undefined
        ? { workers: parseWorkers(env.GENGATE_WORKERS, 'GENGATE_WORKERS') }
        : server.workers !== undefined && server.workers !== null
          ? { workers: parseWorkers(server.workers, 'server.workers') }
          : {}),
      drainDelayMs:
        intFromEnv(env, 'GENGATE_DRAIN_DELAY_MS') ?? nonNegativeInt(server.drainDelayMs, 'server.drainDelayMs') ?? DEFAULT_CONFIG.server.drainDelayMs,
    },
    databaseUrl: env.GENGATE_DATABASE_URL ?? (file.databaseUrl as string | undefined) ?? DEFAULT_CONFIG.databaseUrl,
    redisUrl: env.GENGATE_REDIS_URL ?? (file.redisUrl as string | undefined),
    dataDir: env.GENGATE_DATA_DIR ?? (file.dataDir as string | undefined) ?? DEFAULT_CONFIG.dataDir,
    masterKey: env.GENGATE_MASTER_KEY ?? (file.masterKey as string | undefined),
    secretKey: secretKeySetting(env.GENGATE_SECRET_KEY, file.secretKey),
    previousSecretKeys: checkedPreviousKeys(
      previousSecretKeys(env.GENGATE_SECRET_KEY_PREVIOUS, file.previousSecretKeys),
      env.GENGATE_SECRET_KEY_PREVIOUS ? 'GENGATE_SECRET_KEY_PREVIOUS' : 'previousSecretKeys',
    ),
    logLevel: checkLogLevel(env.GENGATE_LOG_LEVEL, 'GENGATE_LOG_LEVEL') ?? checkLogLevel(file.logLevel, 'logLevel') ?? DEFAULT_CONFIG.logLevel,
    logFormat: checkLogFormat(env.GENGATE_LOG_FORMAT, 'GENGATE_LOG_FORMAT') ?? checkLogFormat(file.logFormat, 'logFormat'),
    accessLog:
      env.GENGATE_ACCESS_LOG !== undefined ? env.GENGATE_ACCESS_LOG !== 'false' : ((file.accessLog as boolean | undefined) ?? DEFAULT_CONFIG.accessLog),
    router: { ...DEFAULT_CONFIG.router, ...(router as Partial<GatewayConfig['router']>) },
    sandbox: { ...DEFAULT_CONFIG.sandbox, ...(sandbox as Partial<GatewayConfig['sandbox']>) },
    media: { ...DEFAULT_CONFIG.media, ...(media as Partial<GatewayConfig['media']>) },
    limits: { ...DEFAULT_CONFIG.limits, ...(limits as Partial<GatewayConfig['limits']>) },
    tasks: { ...DEFAULT_CONFIG.tasks, ...(tasks as Partial<GatewayConfig['tasks']>) },
    responses: { ...DEFAULT_CONFIG.responses, ...(responses as Partial<GatewayConfig['responses']>) },
    retention: { ...DEFAULT_CONFIG.retention, ...(retention as Partial<GatewayConfig['retention']>) },
    admission: {
      ...DEFAULT_CONFIG.admission,
      ...(admission as Partial<GatewayConfig['admission']>),
      failure: { ...DEFAULT_CONFIG.admission.failure, ...(asRecord(admission.failure, 'admission.failure') as Partial<GatewayConfig['admission']['failure']>) },
    },
    tracing: tracingSettings(tracing),
    metrics,
    channels: [],
    models: parseModelOverrides(file.models),
    sources,
  };
  if (env.GENGATE_SANDBOX !== undefined) config.sandbox.enabled = env.GENGATE_SANDBOX !== 'false';
  config.sandbox.taskMs = intFromEnv(env, 'GENGATE_SANDBOX_TASK_MS') ?? config.sandbox.taskMs;
  if (env.GENGATE_PUBLIC_URL) config.media.publicBaseUrl = env.GENGATE_PUBLIC_URL.replace(/\/+$/, '');
  if (env.GENGATE_ALLOW_PRIVATE_URLS !== undefined) config.media.allowPrivateUrls = env.GENGATE_ALLOW_PRIVATE_URLS === 'true';
  Object.assign(config.media, resolveMediaStoreSettings(config.media, env));
  if (env.GENGATE_ALLOW_PRIVATE_BASE_URLS !== undefined) config.router.allowPrivateBaseUrls = env.GENGATE_ALLOW_PRIVATE_BASE_URLS === 'true';
  if (typeof config.router.allowPrivateBaseUrls !== 'boolean') throw new ConfigError('router.allowPrivateBaseUrls must be true or false');
  config.limits.maxDocumentBytes = intFromEnv(env, 'GENGATE_MAX_DOCUMENT_BYTES') ?? config.limits.maxDocumentBytes;
  if (!Number.isSafeInteger(config.limits.maxKeysPerAccount) || config.limits.maxKeysPerAccount < 1) {
    throw new ConfigError(`limits.maxKeysPerAccount must be a positive integer, got ${JSON.stringify(config.limits.maxKeysPerAccount)}`);
  }
  if (typeof config.limits.cutOnRevoke !== 'boolean') {
    throw new ConfigError(`limits.cutOnRevoke must be true or false, got ${JSON.stringify(config.limits.cutOnRevoke)}`);
  }
  config.media.maxImagePixels = intFromEnv(env, 'GENGATE_MAX_IMAGE_PIXELS') ?? config.media.maxImagePixels;
  for (const name of ['maxImageSide', 'maxVideoShortSide', 'maxVideoSeconds', 'maxVideoBytes'] as const) {
    const value = config.sandbox[name];
    if (!Number.isSafeInteger(value) || value < 1) throw new ConfigError(`sandbox.${name} must be a positive integer, got ${JSON.stringify(value)}`);
  }
  for (const name of ['quotaBytesPerAccount', 'dailyBytesPerAccount', 'maxTotalBytes'] as const) {
    // null (or 0) in the file: unlimited.
    config.media[name] = nonNegativeInt(config.media[name], `media.${name}`) ?? 0;
  }
  for (const name of WEBHOOK_POSITIVE_INTS) {
    const value = config.tasks[name];
    if (!Number.isSafeInteger(value) || value < 1) throw new ConfigError(`tasks.${name} must be a positive integer, got ${JSON.stringify(value)}`);
  }
  for (const name of ['usageReportMaxRows', 'usageReportTimeoutMs'] as const) {
    const value = config.limits[name];
    if (!Number.isSafeInteger(value) || value < 1) throw new ConfigError(`limits.${name} must be a positive integer, got ${JSON.stringify(value)}`);
  }
  const retentionDays = config.responses.retentionDays;
  if (!Number.isSafeInteger(retentionDays) || retentionDays < 1 || retentionDays > MAX_RESPONSE_RETENTION_DAYS) {
    throw new ConfigError(
      `responses.retentionDays must be a whole number of days from 1 to ${MAX_RESPONSE_RETENTION_DAYS}, got ${JSON.stringify(retentionDays)}`,
    );
  }
  const maxStored = config.responses.maxStoredMiBPerAccount;
  if (!Number.isSafeInteger(maxStored) || maxStored < 0 || maxStored > MAX_STORED_MIB_PER_ACCOUNT) {
    throw new ConfigError(
      `responses.maxStoredMiBPerAccount must be a whole number of MiB from 0 (no cap) to ${MAX_STORED_MIB_PER_ACCOUNT}, got ${JSON.stringify(maxStored)}`,
    );
  }
  checkAdmission(config.admission);
  for (const [name, days] of Object.entries(config.retention)) {
    if (!(name in DEFAULT_CONFIG.retention)) throw new ConfigError(`retention.${name} is not a setting (${Object.keys(DEFAULT_CONFIG.retention).join(', ')})`);
    if (!Number.isSafeInteger(days) || days < 0 || days > MAX_RETENTION_DAYS) {
      throw new ConfigError(`retention.${name} must be a whole number of days from 0 (keep forever) to ${MAX_RETENTION_DAYS}, got ${JSON.stringify(days)}`);
    }
  }
  if (!Number.isInteger(config.media.maxImagePixels) || config.media.maxImagePixels < 1) {
    throw new ConfigError(`media.maxImagePixels must be a positive integer, got ${JSON.stringify(config.media.maxImagePixels)}`);
  }

  if (config.server.headersTimeoutMs > config.server.requestTimeoutMs) {
    throw new ConfigError('server.headersTimeoutMs must not be longer than server.requestTimeoutMs');
  }

  const fileChannels = file.channels ?? [];
  if (!Array.isArray(fileChannels)) throw new ConfigError('channels must be a list');
  const allowPrivateBaseUrls = config.router.allowPrivateBaseUrls;
  config.channels = fileChannels.map((raw, i) => validateChannel(raw, `channels[${i}]`, providers, { allowPrivateBaseUrls }));
  const envChannels = channelsFromEnv(env, providers, allowPrivateBaseUrls);
  if (envChannels.length > 0) sources.push('environment');
  config.channels.push(...envChannels);

  // Applied once here so that a bad `models:` entry is reported with the rest of the configuration.
  applyModelOverrides(shippedModelCatalog().models, config.models);

  const merged = { ...config, ...options.overrides };
  const names = new Set<string>();
  for (const channel of merged.channels) {
    if (names.has(channel.name)) throw new ConfigError(`two channels are named "${channel.name}"`);
    names.add(channel.name);
  }
  return merged;
}

function checkAdmission(admission: GatewayConfig['admission']): void {
  for (const name of Object.keys(admission)) {
    if (!(name in DEFAULT_CONFIG.admission)) throw new ConfigError(`admission.${name} is not a setting (${Object.keys(DEFAULT_CONFIG.admission).join(', ')})`);
  }
  const bounds = { outputTokenEstimate: [1, 10_000_000], leaseMs: [1_000, 3_600_000], redisTimeoutMs: [10, 60_000] } as const;
  for (const [name, [min, max]] of Object.entries(bounds)) {
    const value = admission[name as keyof typeof bounds];
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw new ConfigError(`admission.${name} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`);
    }
  }
  if (typeof admission.allowUnpriced !== 'boolean')
    throw new ConfigError(`admission.allowUnpriced must be true or false, got ${JSON.stringify(admission.allowUnpriced)}`);
  if (typeof admission.redisKeyPrefix !== 'string' || admission.redisKeyPrefix.length > 64 || /\s/.test(admission.redisKeyPrefix)) {
    throw new ConfigError(`admission.redisKeyPrefix must be a string of at most 64 characters without spaces, got ${JSON.stringify(admission.redisKeyPrefix)}`);
  }
  for (const [kind, mode] of Object.entries(admission.failure)) {
    if (!(kind in DEFAULT_CONFIG.admission.failure)) throw new ConfigError(`admission.failure.${kind} is not a setting (rates, counts, budgets)`);
    if (mode !== 'open' && mode !== 'closed') throw new ConfigError(`admission.failure.${kind} must be open or closed, got ${JSON.stringify(mode)}`);
  }
}

/** `tracing:` — whether spans carry prompts and completions, and how much of them. */
function tracingSettings(section: Record<string, unknown>): TracingSettings {
  for (const name of Object.keys(section)) {
    if (!(name in DEFAULT_TRACING_SETTINGS)) throw new ConfigError(`tracing.${name} is not a setting (${Object.keys(DEFAULT_TRACING_SETTINGS).join(', ')})`);
  }
  const { captureContent = DEFAULT_TRACING_SETTINGS.captureContent, contentMaxChars = DEFAULT_TRACING_SETTINGS.contentMaxChars } = section;
  if (typeof captureContent !== 'boolean') throw new ConfigError(`tracing.captureContent must be true or false, got ${JSON.stringify(captureContent)}`);
  if (!Number.isSafeInteger(contentMaxChars) || (contentMaxChars as number) < 1 || (contentMaxChars as number) > 1_000_000) {
    throw new ConfigError(`tracing.contentMaxChars must be a whole number from 1 to 1000000, got ${JSON.stringify(contentMaxChars)}`);
  }
  return { captureContent, contentMaxChars: contentMaxChars as number };
}
