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
  cost_usd: number;
  latency_ms: number;
  created_at: number;
}

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
  price_usd: number;
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
}

/** `reserve` at submit, then exactly one of `settle` or `refund`. */
export interface TaskLedgerTable {
  id: Generated<number>;
  task_id: string;
  owner: string;
  kind: 'reserve' | 'settle' | 'refund';
  amount_usd: number;
  created_at: number;
}

export interface WebhookDeliveriesTable {
  /** `<task id>.<task version>`: stable, so the receiver can dedupe and a restart never enqueues again. */
  id: string;
  task_id: string;
  owner: string;
  url: string;
  body: string;
  status: 'pending' | 'delivered' | 'dead';
  attempts: number;
  next_attempt_at: number;
  lease_until: number;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}

export interface Database {
  api_keys: ApiKeysTable;
  usage_records: UsageRecordsTable;
  channels: ChannelsTable;
  tasks: TasksTable;
  task_ledger: TaskLedgerTable;
  webhook_deliveries: WebhookDeliveriesTable;
}
