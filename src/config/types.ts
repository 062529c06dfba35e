import type { TracingSettings } from '../observability/tracing-settings.js';
import type { WorkersSetting } from './workers-setting.js';
import type { MetricsSettings } from './metrics-settings.js';
import type { MediaS3Settings } from '../media/s3-settings.js';
import type { Operation } from '../core/operation.js';
import type { SandboxSettings } from '../sandbox/sandbox-settings.js';

/** One upstream channel as configured (YAML or environment). */
export interface ChannelDefinition {
  name: string;
  /** A registered provider's name (`src/providers/registry.ts`). */
  provider: string;
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
  /** Periodic health probes of the channel's upstream (docs/configuration.md, "Channel probes"); absent: never probed. */
  probe?: ProbeSettings;
  /**
   * When the gateway itself disabled the channel (its credentials refused again and again, with
   * `probe.autoEnable` set); only a stored, disabled channel carries it, and a passing probe
   * re-enables only such a channel. Never set through the admin API.
   */
  autoDisabledAt?: number;
}

export interface ProbeSettings {
  enabled: boolean;
  /** Seconds between two probes of this channel (each replica probes on its own); `PROBE_INTERVAL_BOUNDS` in defaults.ts. */
  intervalSeconds: number;
  /** Take the channel out after repeated refused credentials and put it back when a probe passes. */
  autoEnable: boolean;
}

interface TaskSettings {
  /** How long a client webhook delivery is retried before it is given up. */
  webhookRetryHours: number;
  /** Webhook deliveries in flight at once in this process. */
  webhookConcurrency: number;
  /** Webhook deliveries in flight at once per account (a key without an account counts alone), over every process. */
  webhookAccountConcurrency: number;
  /** Webhook deliveries in flight at once per receiver host (`host:port`), over every process. */
  webhookHostConcurrency: number;
  /** One webhook POST, answer included. */
  webhookTimeoutMs: number;
  /** The timeout of a receiver (an owner's host) that timed out three times in a row, until it answers again. */
  webhookSlowTimeoutMs: number;
  /** Failures in a row after which a receiver's circuit opens: its deliveries wait without connecting. */
  webhookCircuitFailures: number;
  /** How long an open circuit waits before one trial delivery; doubled after each failed trial, up to 10 min. */
  webhookCircuitCooldownMs: number;
  /** Largest result file copied from a vendor into the media store. */
  maxResultBytes: number;
  /** Polls in flight at once per channel. */
  pollConcurrency: number;
  /** Tasks claimed per scheduler pass. */
  claimBatch: number;
  /** How long a poller owns a task it claimed; another process takes the task over after it. */
  leaseMs: number;
  /** How long a submitting request owns its queued task; past it a restarted or other process fails and refunds the task. */
  submitLeaseMs: number;
}

export type { MediaS3Settings };

export interface MediaSettings {
  /** Where media files live: the local folder (`dir`, the default) or S3-compatible object storage (`s3`). */
  store: 'local' | 's3';
  /** Folder of the local media store (default `<dataDir>/media`). */
  dir?: string;
  /** The bucket of `store: s3`. */
  s3?: MediaS3Settings;
  /** How long stored media (image results) stay downloadable. */
  retentionHours: number;
  /** Let client-supplied URLs reach private, loopback and link-local addresses (off: SSRF guard). */
  allowPrivateUrls: boolean;
  /** Largest image the gateway fetches or accepts, in bytes. */
  maxImageBytes: number;
  /**
   * Largest picture a client image may declare (width × height), checked from its header before
   * anything decodes it; a request's images together may declare four times this.
   */
  maxImagePixels: number;
  /** Time allowed for fetching one image URL. */
  fetchTimeoutMs: number;
  /** Public base URL for media links (e.g. behind a proxy); default: the URL the client reached. */
  publicBaseUrl?: string;
  /** Bytes of media one account (or key without an account) may keep stored; 0: unlimited. */
  quotaBytesPerAccount: number;
  /** Bytes of media one account may write per UTC day; 0: unlimited. */
  dailyBytesPerAccount: number;
  /** Bytes the whole media store keeps; past it the oldest files are evicted. 0: unlimited. */
  maxTotalBytes: number;
}

/** The Responses API's stored conversations. */
export interface ResponsesSettings {
  /** Days a stored response (and so a conversation's `previous_response_id`) is kept; then it is deleted. */
  retentionDays: number;
  /** MiB of stored responses one account (or account-less key) may keep; a request that would store one more is refused past it. 0: no cap. */
  maxStoredMiBPerAccount: number;
}

/** How long the gateway keeps what grows with traffic; 0 keeps it forever. Stored responses and media have their own settings. */
export interface RetentionSettings {
  /** Days a usage record (one row per call) is kept; the daily rollups that reports read are kept forever. */
  usageRecordsDays: number;
  /** Days a finished (or deleted) task is kept after it ended; its ledger entries stay. */
  tasksDays: number;
  /** Days a delivered or dead client-webhook delivery is kept. */
  webhookDeliveriesDays: number;
  /** Days an audit-trail entry is kept. */
  auditDays: number;
}

/** How rate limits and budgets are counted (`docs/limits.md`); the rules themselves live in the store. */
export interface AdmissionSettings {
  /** Output tokens a call is assumed to produce when it sets no cap (tokens-per-minute and budget reservations). */
  outputTokenEstimate: number;
  /** How long a call's concurrency and budget holds live unless renewed; a dead replica's holds expire after it. */
  leaseMs: number;
  /** Deadline of each Redis call of the counters. */
  redisTimeoutMs: number;
  /** Prefix of every Redis key and channel of this deployment. */
  redisKeyPrefix: string;
  /** When the counters cannot answer: `open` lets the call run uncounted, `closed` refuses it (503). */
  failure: { rates: 'open' | 'closed'; counts: 'open' | 'closed'; budgets: 'open' | 'closed' };
  /**
   * Whether a key under a budget may call a model the catalog has no price for (its calls would
   * cost 0 against the budget). False: such a call is refused (403 `model_unpriced`).
   */
  allowUnpriced: boolean;
}

export interface LimitSettings {
  /** Largest decoded document (PDF) accepted in a chat request, in bytes. */
  maxDocumentBytes: number;
  /** Daily rollup rows one admin usage report may read; a larger report is refused (413) before it runs. */
  usageReportMaxRows: number;
  /** How long one admin usage report may take; a slower one is refused (413). */
  usageReportTimeoutMs: number;
  /** Active (not revoked, not expired) keys a member may hold in their account; a member's next key is refused (409). Admins are not limited. */
  maxKeysPerAccount: number;
  /** Ends the in-flight calls of a key once it is revoked or its account disabled (streams with their dialect's error event, billed for what was produced). */
  cutOnRevoke: boolean;
}

/** USD per million tokens, and per unit produced (an image) where a model is billed so. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  perUnit?: number;
  /**
   * The long-context tier: when a call's input tokens (cached ones included) exceed `threshold`,
   * the whole call is billed at these prices (Gemini 2.5 Pro, Claude Sonnet 4.x with 1M context).
   */
  above?: LongContextPrice;
}

/** USD per million tokens above the threshold; a cache price not given is the tier's input price. */
export interface LongContextPrice {
  threshold: number;
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** What a model can take in or do, as routing checks it (`routing/capabilities.ts`). */
export type ModelCapability = 'tools' | 'vision' | 'pdf' | 'json_schema' | 'reasoning';

/** Where a price was read, and when (`YYYY-MM-DD` or `YYYY-MM`). */
export interface PriceSource {
  url: string;
  date: string;
}

/** One model of the catalog (`catalog/models.yaml`, extended by the `models:` list of gengate.yaml). */
export interface CatalogEntry {
  id: string;
  /** The operations the model serves; the first is the one model lists show. */
  operations: Operation[];
  /** Who makes the model (`owned_by` in OpenAI lists). */
  ownedBy: string;
  displayName: string;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  price?: ModelPrice;
  /** Absent: unknown, and routing does not filter by it; a list: everything else is missing. */
  capabilities?: ModelCapability[];
  priceSource?: PriceSource;
}

/**
 * An entry of gengate.yaml's `models:` list: with the id of a catalog model, the fields given
 * replace that model's (price fields one by one); with a new id, it adds a model (then
 * `operations` is required).
 */
export interface ModelOverride {
  id: string;
  operations?: Operation[];
  ownedBy?: string;
  displayName?: string;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  price?: Partial<ModelPrice>;
  capabilities?: ModelCapability[];
  priceSource?: PriceSource;
}

export interface GatewayConfig {
  server: {
    host: string;
    port: number;
    /** Largest accepted request body in bytes; larger bodies get 413. */
    bodyLimitBytes: number;
    /** Deepest nesting of arrays and objects accepted in a JSON body; deeper bodies get 400. */
    maxBodyDepth: number;
    /**
     * Which `X-Forwarded-*` hops are believed: false, the number of proxies in front of the
     * gateway, or their addresses / CIDR ranges (`true` is refused: see config/trust-proxy.ts).
     */
    trustProxy: false | number | string[];
    /**
     * Host names a client's Host header may name for the links built from it when no public URL is
     * set (localhost names always); another Host gets links on the address the connection reached.
     */
    allowedHosts: string[];
    /** Time a client has to send the request line and headers of a request. */
    headersTimeoutMs: number;
    /** Time a client has to send a whole request, body included (408 after it). Not applied to the answer. */
    requestTimeoutMs: number;
    /** A request body with no byte for this long is cut (the connection closed); 0 turns it off. */
    bodyIdleTimeoutMs: number;
    /** How long an idle keep-alive connection stays open between requests. */
    keepAliveTimeoutMs: number;
    /** Closes a connection with no traffic either way for this long; 0 (default) never, so a slow answer is never cut. */
    connectionTimeoutMs: number;
    /** On shutdown, how long in-flight requests may finish before they are ended with an error. */
    drainTimeoutMs: number;
    /** Worker processes sharing the port (`auto`: the cores available, cgroup quota respected); absent: 1. */
    workers?: WorkersSetting;
    /**
     * On SIGTERM/SIGINT, how long the gateway keeps accepting and serving new requests (while
     * `/readyz` already answers 503) before it closes its listener and starts the drain.
     */
    drainDelayMs: number;
  };
  /** `sqlite:<path>` (embedded default) or `postgres://…`. */
  databaseUrl: string;
  /** `redis://…` for scale-out coordination; absent means in-process. */
  redisUrl?: string;
  dataDir: string;
  /**
   * Key encrypting stored upstream credentials (32 bytes, base64 or hex); absent means a key
   * generated into `<dataDir>/secret.key` on first use.
   */
  secretKey?: string;
  /**
   * Keys in force before a rotation (`GENGATE_SECRET_KEY_PREVIOUS`, comma-separated): stored
   * credentials sealed under them can still be read until `gengate secrets rotate` re-seals them.
   */
  previousSecretKeys?: string[];
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
    /**
     * Whether pass-through answers name the public model id the client asked for (true) or the
     * upstream's own model name (false). Translated answers always name the public id.
     */
    publicModelNames: boolean;
    /** Channel base URLs may point at private networks (loopback always may; link-local and metadata addresses never). */
    allowPrivateBaseUrls: boolean;
  };
  sandbox: SandboxSettings;
  media: MediaSettings;
  limits: LimitSettings;
  responses: ResponsesSettings;
  retention: RetentionSettings;
  admission: AdmissionSettings;
  tasks: TaskSettings;
  /** What traces record, when the `OTEL_*` variables turn them on (absent: no content). */
  tracing?: TracingSettings;
  /** `/metrics` and the timing headers (`config/metrics-settings.ts`). */
  metrics: MetricsSettings;
  channels: ChannelDefinition[];
  /** Changes and additions to the shipped model catalog, applied in order. */
  models: ModelOverride[];
  /** Where the configuration came from, for the start banner. */
  sources: string[];
}
