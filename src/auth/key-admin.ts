/** Creating, listing and revoking keys: what the CLI (and later the admin API) does. */
import type { ApiKeysRepository, StoredApiKey } from '../store/api-keys-repository.js';
import { generateApiKey } from './api-key-format.js';

export interface CreateKeyOptions {
  name: string;
  models?: string[] | null;
  expiresAt?: number | null;
  accountId?: string | null;
  /** May call the admin API; only for an admin account's key. */
  admin?: boolean;
  /** Refuse (`KeyLimitError`) when the account already holds this many active keys. */
  maxActive?: number;
}

export async function createApiKey(repository: ApiKeysRepository, options: CreateKeyOptions): Promise<{ key: string; record: StoredApiKey }> {
  const generated = generateApiKey();
  const record: StoredApiKey = {
    id: generated.id,
    name: options.name,
    keyHash: generated.hash,
    keyHint: generated.hint,
    models: options.models && options.models.length > 0 ? options.models : null,
    expiresAt: options.expiresAt ?? null,
    revokedAt: null,
    createdAt: Date.now(),
    accountId: options.accountId ?? null,
    admin: options.admin ?? false,
  };
  await repository.insert(record, { maxActive: options.maxActive });
  return { key: generated.key, record };
}
