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

export interface Database {
  api_keys: ApiKeysTable;
  usage_records: UsageRecordsTable;
  channels: ChannelsTable;
}
