/**
 * Builds the gateway configuration: embedded defaults, then the YAML file (if any), then the
 * environment. Channels come from the YAML `channels:` list and from the provider variables
 * of the environment (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY and their _BASE_URL).
 */
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { channelDefaults, DEFAULT_BASE_URLS, DEFAULT_CONFIG } from './defaults.js';
import type { ChannelDefinition, GatewayConfig } from './types.js';
import { validateChannel, ConfigError } from './validate-config.js';

export { ConfigError };

type Env = Record<string, string | undefined>;

interface EnvFamily {
  provider: 'openai' | 'anthropic' | 'gemini' | 'bfl' | 'replicate' | 'ideogram';
  keyVar: string;
  baseVar: string;
  rewriteVar: string;
  /** The spec's ids of the family and the upstream names they stand for. */
  rewrite: Array<{ from: string; to: string }>;
  /** Exact public id → upstream name, for families whose names do not follow a prefix. */
  modelMap?: Record<string, string>;
  /** Upstream names served as they are. */
  extraModels: string[];
}

const ENV_FAMILIES: EnvFamily[] = [
  {
    provider: 'openai', keyVar: 'OPENAI_API_KEY', baseVar: 'OPENAI_BASE_URL', rewriteVar: 'OPENAI_MODEL_REWRITE',
    rewrite: [{ from: 'textmodel-b-', to: 'gpt-' }],
    extraModels: ['gpt-*', 'o1*', 'o3*', 'o4*', 'chatgpt-*', 'text-embedding-3-*', 'text-embedding-ada-*', 'dall-e-*'],
  },
  {
    provider: 'anthropic', keyVar: 'ANTHROPIC_API_KEY', baseVar: 'ANTHROPIC_BASE_URL', rewriteVar: 'ANTHROPIC_MODEL_REWRITE',
    rewrite: [{ from: 'textmodel-a-', to: 'claude-' }], extraModels: ['claude-*'],
  },
  {
    provider: 'gemini', keyVar: 'GEMINI_API_KEY', baseVar: 'GEMINI_BASE_URL', rewriteVar: 'GEMINI_MODEL_REWRITE',
    rewrite: [{ from: 'textmodel-c-', to: 'gemini-' }], extraModels: ['gemini-*', 'text-embedding-004', 'embedding-*'],
  },
  {
    provider: 'bfl', keyVar: 'BFL_API_KEY', baseVar: 'BFL_BASE_URL', rewriteVar: 'BFL_MODEL_REWRITE', rewrite: [],
    modelMap: { 'imagegen1-pro': 'flux-pro', 'imagegen1-dev': 'flux-dev', 'imagegen1-1.1-pro': 'flux-pro-1.1' },
    extraModels: ['flux-*'],
  },
  {
    provider: 'replicate', keyVar: 'REPLICATE_API_TOKEN', baseVar: 'REPLICATE_BASE_URL', rewriteVar: 'REPLICATE_MODEL_REWRITE', rewrite: [],
    modelMap: {
      'imagegen1-pro': 'black-forest-labs/flux-pro',
      'imagegen1-dev': 'black-forest-labs/flux-dev',
      'imagegen1-schnell': 'black-forest-labs/flux-schnell',
      'imagegen1-1.1-pro': 'black-forest-labs/flux-1.1-pro',
    },
    extraModels: ['*/*'],
  },
  {
    provider: 'ideogram', keyVar: 'IDEOGRAM_API_KEY', baseVar: 'IDEOGRAM_BASE_URL', rewriteVar: 'IDEOGRAM_MODEL_REWRITE',
    rewrite: [], modelMap: { 'imagegen2-v3': 'V_3' }, extraModels: ['V_3'],
  },
];

/** `from=to` pairs separated by commas, e.g. `textmodel-b-=gpt-,mymodel=gpt-4o`. */
function parseRewrite(value: string, variable: string): Array<{ from: string; to: string }> {
  return value.split(',').filter(Boolean).map((pair) => {
    const at = pair.indexOf('=');
    if (at <= 0) throw new ConfigError(`${variable}: expected from=to pairs, got "${pair}"`);
    return { from: pair.slice(0, at).trim(), to: pair.slice(at + 1).trim() };
  });
}

function channelsFromEnv(env: Env): ChannelDefinition[] {
  const channels: ChannelDefinition[] = [];
  for (const family of ENV_FAMILIES) {
    const apiKey = env[family.keyVar];
    if (!apiKey) continue;
    const rewrite = env[family.rewriteVar] ? parseRewrite(env[family.rewriteVar]!, family.rewriteVar) : family.rewrite;
    const modelMap = family.modelMap ?? {};
    channels.push({
      ...channelDefaults(),
      name: `${family.provider}-env`,
      provider: family.provider,
      baseUrl: (env[family.baseVar] || DEFAULT_BASE_URLS[family.provider]).replace(/\/+$/, ''),
      apiKey,
      models: [...rewrite.map((r) => `${r.from}*`), ...Object.keys(modelMap), ...family.extraModels],
      modelMap,
      modelRewrite: rewrite,
    });
  }
  return channels;
}

function intFromEnv(env: Env, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new ConfigError(`${name} must be a non-negative integer, got "${raw}"`);
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
  if (typeof value !== 'string' || !LOG_LEVELS.includes(value)) throw new ConfigError(`${where}: unknown log level ${JSON.stringify(value)}, use one of ${LOG_LEVELS.join(', ')}`);
  return value;
}

function checkLogFormat(value: unknown, where: string): 'json' | 'pretty' | undefined {
  if (value === undefined || value === '') return undefined;
  if (value !== 'json' && value !== 'pretty') throw new ConfigError(`${where}: unknown log format ${JSON.stringify(value)}, use json or pretty`);
  return value;
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

export interface LoadOptions {
  env?: Env;
  /** Path of the YAML file; defaults to GENGATE_CONFIG or ./gengate.yaml when it exists. */
  configPath?: string;
  /** Values that win over file and environment (tests, CLI flags). */
  overrides?: Partial<GatewayConfig>;
}

export function loadConfig(options: LoadOptions = {}): GatewayConfig {
  const env = options.env ?? process.env;
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
  const config: GatewayConfig = {
    server: {
      host: env.GENGATE_HOST ?? (server.host as string | undefined) ?? DEFAULT_CONFIG.server.host,
      port: portFrom(env, server.port) ?? DEFAULT_CONFIG.server.port,
      bodyLimitBytes: intFromEnv(env, 'GENGATE_BODY_LIMIT') ?? (server.bodyLimitBytes as number | undefined) ?? DEFAULT_CONFIG.server.bodyLimitBytes,
      trustProxy: (server.trustProxy as boolean | undefined) ?? DEFAULT_CONFIG.server.trustProxy,
    },
    databaseUrl: env.GENGATE_DATABASE_URL ?? (file.databaseUrl as string | undefined) ?? DEFAULT_CONFIG.databaseUrl,
    redisUrl: env.GENGATE_REDIS_URL ?? (file.redisUrl as string | undefined),
    dataDir: env.GENGATE_DATA_DIR ?? (file.dataDir as string | undefined) ?? DEFAULT_CONFIG.dataDir,
    masterKey: env.GENGATE_MASTER_KEY ?? (file.masterKey as string | undefined),
    logLevel: checkLogLevel(env.GENGATE_LOG_LEVEL, 'GENGATE_LOG_LEVEL') ?? checkLogLevel(file.logLevel, 'logLevel') ?? DEFAULT_CONFIG.logLevel,
    logFormat: checkLogFormat(env.GENGATE_LOG_FORMAT, 'GENGATE_LOG_FORMAT') ?? checkLogFormat(file.logFormat, 'logFormat'),
    accessLog: env.GENGATE_ACCESS_LOG !== undefined ? env.GENGATE_ACCESS_LOG !== 'false' : ((file.accessLog as boolean | undefined) ?? DEFAULT_CONFIG.accessLog),
    router: { ...DEFAULT_CONFIG.router, ...(router as Partial<GatewayConfig['router']>) },
    sandbox: { ...DEFAULT_CONFIG.sandbox, ...(sandbox as Partial<GatewayConfig['sandbox']>) },
    media: { ...DEFAULT_CONFIG.media, ...(media as Partial<GatewayConfig['media']>) },
    limits: { ...DEFAULT_CONFIG.limits, ...(limits as Partial<GatewayConfig['limits']>) },
    channels: [],
    sources,
  };
  if (env.GENGATE_SANDBOX !== undefined) config.sandbox.enabled = env.GENGATE_SANDBOX !== 'false';
  if (env.GENGATE_PUBLIC_URL) config.media.publicBaseUrl = env.GENGATE_PUBLIC_URL.replace(/\/+$/, '');
  if (env.GENGATE_ALLOW_PRIVATE_URLS !== undefined) config.media.allowPrivateUrls = env.GENGATE_ALLOW_PRIVATE_URLS === 'true';
  config.limits.maxDocumentBytes = intFromEnv(env, 'GENGATE_MAX_DOCUMENT_BYTES') ?? config.limits.maxDocumentBytes;

  const fileChannels = file.channels ?? [];
  if (!Array.isArray(fileChannels)) throw new ConfigError('channels must be a list');
  config.channels = fileChannels.map((raw, i) => validateChannel(raw, `channels[${i}]`));
  const envChannels = channelsFromEnv(env);
  if (envChannels.length > 0) sources.push('environment');
  config.channels.push(...envChannels);

  const merged = { ...config, ...options.overrides };
  const names = new Set<string>();
  for (const channel of merged.channels) {
    if (names.has(channel.name)) throw new ConfigError(`two channels are named "${channel.name}"`);
    names.add(channel.name);
  }
  return merged;
}
