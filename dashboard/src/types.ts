/** The admin API's shapes, as the contract in the issue-12 brief gives them. */

export type Role = 'admin' | 'member';

export interface Account {
  id: string;
  email: string;
  role: Role;
}

export interface Session {
  account: Account;
  csrfToken: string;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface ApiKey {
  id: string;
  name: string;
  hint: string;
  models: string[] | null;
  expiresAt: number | null;
  revokedAt: number | null;
  createdAt: number;
  accountId: string | null;
  accountEmail: string | null;
  admin: boolean;
  status: 'active' | 'revoked' | 'expired';
}

export interface Provider {
  name: string;
  operations: string[];
  dialect: string;
  defaultBaseUrl: string | null;
}

export interface Channel {
  name: string;
  provider: string;
  baseUrl: string | null;
  models: string[];
  priority: number;
  weight: number;
  enabled: boolean;
  timeoutMs: number | null;
  source: 'config' | 'stored';
  readOnly: boolean;
  credentialHint: string | null;
  circuit: 'closed' | 'open' | 'half-open';
  probe?: ProbeSettings | null;
  autoDisabled?: boolean;
  /** Provider options, without the secret ones. */
  options?: Record<string, unknown>;
  /** Secret options set, each as a hint. */
  secretOptionHints?: Record<string, string | null>;
}

export interface ProbeSettings {
  enabled: boolean;
  intervalSeconds: number;
  autoEnable: boolean;
}

export interface ProbeResult {
  ok: boolean;
  at: number;
  latencyMs: number;
  model?: string;
  status?: number;
  errorType?: string;
  message?: string;
}

export interface ChannelHealth {
  name: string;
  enabled: boolean;
  autoDisabled: boolean;
  breaker: 'closed' | 'open' | 'half-open';
  probe: ProbeSettings | null;
  probeOk: boolean | null;
  lastProbeLatencyMs: number | null;
  lastProbeAt: number | null;
  errorRate5m: number | null;
  calls5m: number;
  errors5m: number;
  recentProbes: ProbeResult[];
}

export interface ChannelTestResult {
  ok: boolean;
  model: string;
  operation: string;
  latencyMs: number;
  status?: number;
  message: string;
  sample?: string;
}

export interface UsageRow {
  group: string | number | null;
  label: string | null;
  requests: number;
  errors: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  units: number;
  /** nUSD (10⁻⁹ USD): the exact figure. */
  costNusd: number;
  /** Display only. */
  costUsd: number;
  latencyMs: { p50: number | null; p95: number | null; p99: number | null };
}

export interface UsageReport {
  totals: UsageRow;
  rows: UsageRow[];
}

export interface Task {
  id: string;
  family: string;
  operation: string;
  model: string;
  status: string;
  progress: number | null;
  keyId: string | null;
  accountId: string | null;
  createdAt: number;
  finishedAt: number | null;
  /** nUSD (10⁻⁹ USD). */
  priceNusd: number | null;
  errorCode: string | null;
  errorMessage: string | null;
  outputs?: { url: string; kind: 'image' | 'video' }[];
}

export interface TaskDetail {
  task: Task;
  timeline: { at: number; event: string; detail?: unknown }[];
  ledger: { kind: string; amountNusd: number; at: number }[];
  webhooks: { id: string; url: string; status: string; attempts: number; lastError: string | null; createdAt: number; deliveredAt: number | null }[];
}

export interface Model {
  id: string;
  displayName: string | null;
  ownedBy: string | null;
  operations: string[];
  price: Record<string, unknown> | null;
  /** What routing checks the model for; null: unknown. */
  capabilities?: string[] | null;
  /** Where the price was read, and when. */
  priceSource?: { url: string; date: string } | null;
  channels: string[];
  overridden: boolean;
}

export interface AccountRow {
  id: string;
  email: string;
  role: Role;
  createdAt: number;
  disabledAt: number | null;
  hasPassword: boolean;
}

export interface AuditEntry {
  id: string;
  at: number;
  actor: { kind: string; id: string | null; label: string };
  action: string;
  target: string | null;
  details: unknown;
  ip: string | null;
}

export interface LimitRule {
  id: string;
  scope: 'key' | 'account' | 'model';
  subject: string;
  model: string | null;
  kind: string;
  limit: number;
}

export interface BudgetRule {
  id: string;
  scope: 'key' | 'account';
  subject: string;
  period: 'day' | 'week' | 'month' | 'lifetime';
  timeZone: string;
  limitNusd: number;
  limitUsd: string;
  softNusd: number | null;
  softUsd: string | null;
}

export interface LimitStanding {
  keyId: string | null;
  accountId: string | null;
  counters: 'live' | 'unavailable' | 'not_configured';
  limits: Array<{ rule: LimitRule; label: string; used: number | null; remaining: number | null; resetAt: number | null }>;
  budgets: Array<{ budget: BudgetRule; label: string; periodEnd: number | null; spentNusd: number | null; remainingNusd: number | null }>;
}

/** One group of `GET /usage/refusals`: calls refused by one limit or budget. */
export interface RefusalCount {
  reason: string;
  outcome: string;
  count: number;
}

export interface RefusalsReport {
  refusals: RefusalCount[];
  from: number;
  to: number;
}

/** One entry of `GET /usage/errors`: failures of one error type (whose fault: `client.*`, `policy.*`, `upstream.*`, `gateway.*`). */
export interface ErrorTypeCount {
  errorType: string;
  count: number;
}

export interface ErrorsReport {
  errors: ErrorTypeCount[];
  from: number;
  to: number;
}

/** One raw usage row of `GET /usage/records` (the fields the dashboard shows). */
export interface UsageRecord {
  id: number;
  requestId: string;
  createdAt: number;
  model: string;
  channel: string;
  outcome: string;
  errorType: string | null;
  latencyMs: number;
}
