import { SANDBOX_DEFAULTS, SANDBOX_MEDIA_DEFAULTS } from '../sandbox/sandbox-defaults.js';
import { DEFAULT_IMAGE_LIMITS } from '../core/image-bytes.js';
import type { ChannelDefinition, GatewayConfig } from './types.js';

export const DEFAULT_CONFIG: Omit<GatewayConfig, 'channels' | 'models' | 'sources'> = {
  server: {
    host: '127.0.0.1',
    port: 8080,
    bodyLimitBytes: 50 * 1024 * 1024,
    maxBodyDepth: 256,
    trustProxy: false,
    allowedHosts: [],
    headersTimeoutMs: 20_000,
    requestTimeoutMs: 120_000,
    bodyIdleTimeoutMs: 20_000,
    keepAliveTimeoutMs: 72_000,
    connectionTimeoutMs: 0,
    drainTimeoutMs: 30_000,
    // A load balancer or Kubernetes' endpoints take a few seconds to stop sending to a replica
    // that failed /readyz or is terminating; closing the listener sooner refuses what is already on its way.
    drainDelayMs: 5_000,
  },
  databaseUrl: 'sqlite:./data/gengate.db',
  dataDir: './data',
  logLevel: 'info',
  accessLog: true,
  router: { maxAttempts: 3, failureThreshold: 5, cooldownMs: 30_000, publicModelNames: true, allowPrivateBaseUrls: false },
  sandbox: { enabled: true, ...SANDBOX_DEFAULTS, ...SANDBOX_MEDIA_DEFAULTS },
  media: {
    store: 'local',
    retentionHours: 24,
    allowPrivateUrls: false,
    maxImageBytes: DEFAULT_IMAGE_LIMITS.maxBytes,
    maxImagePixels: DEFAULT_IMAGE_LIMITS.maxPixels,
    fetchTimeoutMs: 15_000,
    quotaBytesPerAccount: 1024 ** 3,
    dailyBytesPerAccount: 2 * 1024 ** 3,
    maxTotalBytes: 20 * 1024 ** 3,
  },
  limits: { maxDocumentBytes: 32 * 1024 * 1024, usageReportMaxRows: 1_000_000, usageReportTimeoutMs: 30_000, maxKeysPerAccount: 100, cutOnRevoke: true },
  // OpenAI keeps stored responses 30 days.
  responses: { retentionDays: 30, maxStoredMiBPerAccount: 1024 },
  // Usage rows, tasks and the audit trail are the operator's records: kept until a retention is set. Delivered webhooks are only plumbing.
  // Rates fail open and budgets closed when Redis is away: a lost minute of rate limiting costs less than unbounded spend.
  admission: {
    outputTokenEstimate: 4096,
    leaseMs: 60_000,
    redisTimeoutMs: 250,
    redisKeyPrefix: 'gengate:',
    failure: { rates: 'open', counts: 'open', budgets: 'closed' },
    allowUnpriced: false,
  },
  metrics: { enabled: false, timingHeaders: true },
  retention: { usageRecordsDays: 0, tasksDays: 0, webhookDeliveriesDays: 30, auditDays: 0 },
  tasks: {
    webhookRetryHours: 24,
    webhookConcurrency: 16,
    webhookAccountConcurrency: 4,
    webhookHostConcurrency: 8,
    webhookTimeoutMs: 10_000,
    webhookSlowTimeoutMs: 2_000,
    webhookCircuitFailures: 5,
    webhookCircuitCooldownMs: 30_000,
    maxResultBytes: 512 * 1024 * 1024,
    pollConcurrency: 8,
    claimBatch: 64,
    leaseMs: 30_000,
    submitLeaseMs: 30_000,
  },
};

const DEFAULT_TIMEOUT_MS = 120_000;

/** Seconds between two probes of a channel: at most one probe per 15 s, at least one an hour. */
export const PROBE_INTERVAL_BOUNDS = { min: 15, max: 3600, default: 60 } as const;

/** Defaults for a channel definition; `name`, `provider` and `models` have none. */
export function channelDefaults(): Omit<ChannelDefinition, 'name' | 'provider' | 'models'> {
  return {
    baseUrl: '',
    apiKey: '',
    headers: {},
    modelMap: {},
    modelRewrite: [],
    priority: 0,
    weight: 1,
    enabled: true,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    options: {},
  };
}
