/** Table shapes as Kysely sees them. Times are Unix milliseconds. */
import type { Generated } from 'kysely';

export interface ApiKeysTable {
  id: string;
  name: string;
  key_hash: string;
  /** The first characters of the key, shown in listings so a person can tell keys apart. */
  key_hint: string;
  /** JSON array of model id patterns, or null for any model. */
  models: string | null;
  expires_at: number | null;
  revoked_at: number | null;
  created_at: number;
  /** The account the key belongs to; null for keys made by the CLI without `--account` (operator keys). */
  account_id: string | null;
  /** 1 when the key may call the admin API (only an admin account's key can be). */
  admin: Generated<number>;
  /** The `keys` revision of the row's last change (store-revisions.ts); 0 for rows older than the column. */
  revision: Generated<number>;
}

export interface UsageRecordsTable {
  id: Generated<number>;
  request_id: string;
  key_id: string;
  surface: string;
  operation: string;
  model: string;
  channel: string;
  provider: string;
  upstream_model: string;
  /** `ok`, or the error kind the request ended with. */
  outcome: string;
  stream: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  /** Non-token units the call produced (images, seconds of video), priced per unit. */
  units: number;
  /** What it cost, in nUSD (10⁻⁹ USD, `core/money.ts`); migration 019 made it an integer. */
  cost_nusd: number;
  latency_ms: number;
  created_at: number;
  /** The limit or budget that refused the call (outcome `rate_limit` / `insufficient_quota`); null otherwise (migration 021). */
  refusal?: string | null;
  /** Whose fault the failure was (`core/error-type.ts`); null on a success and on rows before migration 023. */
  error_type?: string | null;
  /** The account of the key that made the call (null: an operator key or the master key). */
  account_id?: string | null;
  /** 1: an upstream answered for a model without a catalog price, so `cost_nusd` is 0 for want of a price (migration 024). */
  unpriced?: number;
}

type Digit = '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9';
/** The latency histogram's bucket columns, `lat_00` … `lat_40` (bounds in `latency-histogram.ts`). */
type LatencyColumn = `lat_${'0' | '1' | '2' | '3'}${Digit}` | 'lat_40';

/** What every usage rollup table adds up per row. */
type UsageRollupMeasures = {
  requests: number;
  /** Requests whose outcome was not `ok`. */
  errors: number;
  input_tokens: number;
  output_tokens: number;
  cache_read_tokens: number;
  cache_write_tokens: number;
  reasoning_tokens: number;
  units: number;
  /** nUSD. */
  cost_nusd: number;
  latency_ms_sum: number;
  /** Rows of calls to a model without a price (migration 024). */
  unpriced: number;
} & { [column in LatencyColumn]: number };

/**
 * Usage summed per UTC day and (account, key, model, channel, surface, operation), kept up to
 * date by the writer of `usage_records` in the same transaction. Key columns hold '' for none.
 */
type UsageDailyTable = {
  /** Days since the Unix epoch (UTC). */
  day: number;
  account_id: string;
  key_id: string;
  model: string;
  channel: string;
  surface: string;
  operation: string;
} & UsageRollupMeasures;

/** The same measures per (day, account, one dimension): small tables the reports read first (migration 011). */
type UsageDimensionRollupTable<Dimension extends string> = { day: number; account_id: string } & { [column in Dimension]: string } & UsageRollupMeasures;

/** Channels defined at run time (admin API, CLI); channels from the configuration file are not stored. */
export interface ChannelsTable {
  name: string;
  provider: string;
  /** JSON of the definition without its credentials: base URL, models, map, rewrites, priority, weight, enabled, timeout, options. */
  definition: string;
  /** The encrypted JSON `{ apiKey, headers }` (an envelope of `credential-cipher.ts`); never plaintext. */
  credentials: string;
  /** Id of the secret key the credentials are encrypted under, to find rows a key rotation must re-encrypt. */
  key_id: string;
  created_at: number;
  updated_at: number;
}

/** One asynchronous task (`core/task.ts`); JSON columns hold the request, vendor data and result. */
export interface TasksTable {
  id: string;
  owner: string;
  surface: string;
  operation: string;
  model: string;
  request: string;
  parent_id: string | null;
  channel: string | null;
  provider: string | null;
  upstream_model: string | null;
  upstream_id: string | null;
  upstream_data: string | null;
  status: string;
  vendor_status: string | null;
  progress: number;
  result: string | null;
  error_code: string | null;
  error_message: string | null;
  /** Whose fault the failure was (`core/error-type.ts`) when the task failed; null otherwise and before migration 023. */
  error_type: Generated<string | null>;
  /** Reserved at submit, in nUSD. */
  price_nusd: number;
  callback_url: string | null;
  callback_state: string | null;
  /** The unguessable part of the URL upstream callbacks for this task arrive on. */
  callback_token: string;
  created_at: number;
  submitted_at: number | null;
  started_at: number | null;
  finished_at: number | null;
  updated_at: number;
  /** Past it, a task not finished is failed and refunded. */
  deadline_at: number;
  next_poll_at: number;
  poll_count: number;
  lease_owner: string | null;
  /** A process works on the task only while it holds an unexpired lease (0: free). */
  lease_until: number;
  /** Bumped on every change a client can see; a webhook delivery is keyed by it. */
  version: number;
  /** Set when the owner deleted the task: it stays for the ledger, hidden from lookups. */
  deleted_at: number | null;
  /** The account of the key that submitted the task. */
  account_id: Generated<string | null>;
}

/** `reserve` at submit, then exactly one of `settle` or `refund`. */
export interface TaskLedgerTable {
  id: Generated<number>;
  task_id: string;
  owner: string;
  kind: 'reserve' | 'settle' | 'refund';
  /** nUSD. */
  amount_nusd: number;
  created_at: number;
}

export interface WebhookDeliveriesTable {
  /** `<task id>.<task version>`: stable, so the receiver can dedupe and a restart never enqueues again. */
  id: string;
  task_id: string;
  owner: string;
  url: string;
  /** The receiver's `host:port` (fairness caps and circuits); null on rows enqueued before it was kept. */
  host: string | null;
  body: string;
  status: 'pending' | 'delivered' | 'dead';
  attempts: number;
  next_attempt_at: number;
  lease_until: number;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}

export type AccountRole = 'admin' | 'member';

export interface AccountsTable {
  id: string;
  /** Lower-cased. */
  email: string;
  role: AccountRole;
  /** scrypt hash (`scrypt$N$r$p$salt$hash`); null until the account's one-time link is used. */
  password_hash: string | null;
  /** JSON array of model id patterns the account's keys and playground may use; null for any. */
  models: string | null;
  created_at: number;
  updated_at: number;
  disabled_at: number | null;
}

/** A signed-in browser. The id is the SHA-256 of the cookie's token, never the token itself. */
export interface SessionsTable {
  id: string;
  account_id: string;
  csrf_token: string;
  created_at: number;
  expires_at: number;
  last_seen_at: number;
  ip: string;
  user_agent: string;
}

/** One-time links (set the first password, reset one); the id is the SHA-256 of the link's token. */
interface AccountLinksTable {
  id: string;
  account_id: string;
  purpose: 'setup';
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

interface LoginFailuresTable {
  id: Generated<number>;
  email: string;
  /** The address the attempt came from (an IPv6 address's /64). */
  ip: string;
  /** `device:<id>` of a known-device cookie, or `session:<id>` for a change of password; null otherwise. */
  device: string | null;
  at: number;
}

/** Every admin action: who, what, when, from where. */
export interface AuditLogTable {
  id: Generated<number>;
  at: number;
  /** `account` (signed in), `key` (an admin API key), `master`, `cli`, `system`. */
  actor_kind: string;
  actor_id: string | null;
  actor_label: string;
  /** Dotted verb, e.g. `key.create`, `channel.update`, `session.sign_in`. */
  action: string;
  target: string | null;
  /** JSON; never a secret. */
  details: string | null;
  ip: string | null;
}

/** A counter per invalidation topic (`keys`, `channels`, `catalog`), bumped by every write to what it covers. */
interface StoreRevisionsTable {
  topic: string;
  revision: number;
}

/** A model change made at run time: the JSON of a `models:` entry without its id. */
interface ModelOverridesTable {
  id: string;
  definition: string;
  updated_at: number;
}

/** One stored media file: whose quota it counts against, and its size. */
interface MediaFilesTable {
  name: string;
  /** An account id, or `key:<id>` for a key without an account. */
  owner: string;
  bytes: number;
  created_at: number;
}

/** Bytes an owner wrote to the media store on one UTC day (days since the Unix epoch). */
interface MediaDailyWritesTable {
  owner: string;
  day: number;
  bytes: number;
}

/** A background response's durable run (migration 017); `status` is a `StoredResponseStatus`. */
export interface BackgroundResponsesTable {
  id: string;
  key_id: string;
  account_id: string | null;
  /** The `AuthenticatedKey` the run calls for, as JSON. */
  key_json: string;
  /** The creating request's id. */
  request_id: string;
  /** The client's request body as JSON text. */
  body: string;
  stream: number;
  status: string;
  attempts: Generated<number>;
  lease_owner: string | null;
  lease_until: number;
  /** The response object as it ended (terminal statuses only), JSON. */
  final_object: string | null;
  event_count: Generated<number>;
  event_bytes: Generated<number>;
  /** The `sequence_number` the next stored event gets. */
  next_sequence: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** One stream event of a background response, its JSON with its `sequence_number`. */
export interface BackgroundResponseEventsTable {
  response_id: string;
  sequence: number;
  type: string;
  data: string;
}

/** One stored Responses API response (`store/stored-responses-repository.ts`); items and object are JSON text. */
interface StoredResponsesTable {
  id: string;
  /** The account id, or `key:<id>` for a key without an account: only its keys see the row. */
  owner: string;
  /** The account, null for a key without one (the admin API's filter). */
  account_id: string | null;
  key_id: string;
  model: string;
  status: string;
  previous_response_id: string | null;
  input_items: string;
  output_items: string;
  object: string;
  /** Input plus output items. */
  item_count: number;
  /** Characters of the three JSON columns together. */
  bytes: number;
  created_at: number;
  expires_at: number;
}

/** Which response last stored an item of this id, per owner: what an `item_reference` is looked up by. */
/** Bytes and responses an owner keeps in `stored_responses` (migration 025), kept in step by the repository. */
interface StoredResponseTotalsTable {
  owner: string;
  bytes: number | string;
  responses: number | string;
}

interface StoredResponseItemsTable {
  owner: string;
  item_id: string;
  response_id: string;
}

/** A limit rule (`limits/contract.ts` LimitRule); `model` '' when the rule has no pattern. */
export interface LimitRulesTable {
  id: string;
  scope: string;
  subject: string;
  model: string;
  kind: string;
  limit_value: number;
  created_at: number;
  updated_at: number;
}

/** A budget rule (`limits/contract.ts` BudgetRule), in nUSD. */
export interface BudgetRulesTable {
  id: string;
  scope: string;
  subject: string;
  period: string;
  time_zone: string;
  limit_nusd: number;
  soft_nusd: number | null;
  created_at: number;
  updated_at: number;
}

export interface Database {
  background_responses: BackgroundResponsesTable;
  background_response_events: BackgroundResponseEventsTable;
  accounts: AccountsTable;
  sessions: SessionsTable;
  account_links: AccountLinksTable;
  login_failures: LoginFailuresTable;
  media_files: MediaFilesTable;
  media_daily_writes: MediaDailyWritesTable;
  audit_log: AuditLogTable;
  api_keys: ApiKeysTable;
  usage_records: UsageRecordsTable;
  usage_daily: UsageDailyTable;
  usage_daily_by_key: UsageDimensionRollupTable<'key_id'>;
  usage_daily_by_model: UsageDimensionRollupTable<'model'>;
  usage_daily_by_channel: UsageDimensionRollupTable<'channel'>;
  usage_daily_by_surface: UsageDimensionRollupTable<'surface'>;
  channels: ChannelsTable;
  tasks: TasksTable;
  task_ledger: TaskLedgerTable;
  webhook_deliveries: WebhookDeliveriesTable;
  store_revisions: StoreRevisionsTable;
  model_overrides: ModelOverridesTable;
  stored_responses: StoredResponsesTable;
  stored_response_items: StoredResponseItemsTable;
  stored_response_totals: StoredResponseTotalsTable;
  limit_rules: LimitRulesTable;
  budget_rules: BudgetRulesTable;
}
