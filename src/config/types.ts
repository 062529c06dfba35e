import type { ProviderName } from '../providers/types.js';

/** One upstream channel as configured (YAML or environment). */
export interface ChannelDefinition {
  name: string;
  provider: ProviderName;
  baseUrl: string;
  apiKey: string;
  headers: Record<string, string>;
  /** Public model ids this channel serves; `*` matches any run of characters. */
  models: string[];
  /** Exact public id → upstream name; checked before `modelRewrite`. */
  modelMap: Record<string, string>;
  /** Prefix rewrites applied to the public id to get the upstream name, first match wins. */
  modelRewrite: Array<{ from: string; to: string }>;
  /** Higher tiers are tried first. */
  priority: number;
  /** Relative share of traffic within a tier. */
  weight: number;
  enabled: boolean;
  timeoutMs: number;
  options: Record<string, unknown>;
}

export interface SandboxSettings {
  enabled: boolean;
  /** Streaming pace of simulated output. */
  tokensPerSecond: number;
  /** Delay before the first simulated token. */
  firstTokenDelayMs: number;
  /** Share of simulated requests that fail with an upstream error (0–1), for failover drills. */
  failureRate: number;
}

export interface MediaSettings {
  /** Folder of the local media store (default `<dataDir>/media`). */
  dir?: string;
  /** How long stored media (image results) stay downloadable. */
  retentionHours: number;
  /** Let client-supplied URLs reach private, loopback and link-local addresses (off: SSRF guard). */
  allowPrivateUrls: boolean;
  /** Largest image the gateway fetches or accepts, in bytes. */
  maxImageBytes: number;
  /** Time allowed for fetching one image URL. */
  fetchTimeoutMs: number;
  /** Public base URL for media links (e.g. behind a proxy); default: the URL the client reached. */
  publicBaseUrl?: string;
}

export interface LimitSettings {
  /** Largest decoded document (PDF) accepted in a chat request, in bytes. */
  maxDocumentBytes: number;
}

export interface GatewayConfig {
  server: {
    host: string;
    port: number;
    /** Largest accepted request body in bytes; larger bodies get 413. */
    bodyLimitBytes: number;
    trustProxy: boolean;
  };
  /** `sqlite:<path>` (embedded default) or `postgres://…`. */
  databaseUrl: string;
  /** `redis://…` for scale-out coordination; absent means in-process. */
  redisUrl?: string;
  dataDir: string;
  /** A key that is always valid as an API key (and later for the admin API). */
  masterKey?: string;
  logLevel: string;
  /** `pretty` (human-readable lines) or `json`; absent: pretty when stdout is a terminal, JSON otherwise. */
  logFormat?: 'json' | 'pretty';
  /** One log line per request. */
  accessLog: boolean;
  router: {
    /** Channels tried for one request, the first included. */
    maxAttempts: number;
    /** Consecutive failures that open a channel's circuit. */
    failureThreshold: number;
    /** How long an open circuit keeps a channel out before one trial request. */
    cooldownMs: number;
  };
  sandbox: SandboxSettings;
  media: MediaSettings;
  limits: LimitSettings;
  channels: ChannelDefinition[];
  /** Where the configuration came from, for the start banner. */
  sources: string[];
}
