/**
 * Answers "which key is this?" from memory on the hot path. Keys are loaded at start and
 * reloaded periodically (so revocations by another process take effect within the refresh
 * interval); a key id not yet in memory (created by the CLI a moment ago) is looked up once in
 * the store, and unknown ids are remembered briefly so a flood of bad keys cannot hammer it.
 */
import { GatewayError } from '../core/errors.js';
import type { ApiKeysRepository, StoredApiKey } from '../store/api-keys-repository.js';
import type { AuthenticatedKey } from '../core/key.js';
import { hashApiKey, keyIdOf, sameHash } from './api-key-format.js';

const NEGATIVE_TTL_MS = 10_000;
const NEGATIVE_LIMIT = 10_000;

function invalidKey(): GatewayError {
  return new GatewayError('authentication', 'Invalid API key. Pass a valid gengate key.', { code: 'invalid_api_key' });
}

export class KeyDirectory {
  private keys = new Map<string, StoredApiKey>();
  private readonly unknown = new Map<string, number>();
  private readonly masterHash?: string;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly repository: ApiKeysRepository,
    masterKey: string | undefined,
    private readonly refreshMs = 5_000,
  ) {
    if (masterKey) this.masterHash = hashApiKey(masterKey);
  }

  async start(): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => {
      this.reload().catch(() => undefined);
    }, this.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async reload(): Promise<void> {
    const next = new Map<string, StoredApiKey>();
    for (const key of await this.repository.list()) next.set(key.id, key);
    this.keys = next;
  }

  async authenticate(presented: string | undefined): Promise<AuthenticatedKey> {
    if (!presented) {
      throw new GatewayError('authentication', 'No API key provided. Send it as a Bearer token (or the header your SDK uses).', {
        code: 'missing_api_key',
      });
    }
    const presentedHash = hashApiKey(presented);
    if (this.masterHash && sameHash(presentedHash, this.masterHash)) {
      return { id: 'master', name: 'master key', models: null, isMaster: true, accountId: null };
    }
    const id = keyIdOf(presented);
    if (!id) throw invalidKey();
    const stored = this.keys.get(id) ?? (await this.lookUp(id));
    if (!stored || !sameHash(presentedHash, stored.keyHash)) throw invalidKey();
    const now = Date.now();
    if (stored.revokedAt !== null) throw new GatewayError('authentication', 'This API key has been revoked.', { code: 'invalid_api_key' });
    if (stored.expiresAt !== null && stored.expiresAt <= now) {
      throw new GatewayError('authentication', 'This API key has expired.', { code: 'expired_api_key' });
    }
    return { id: stored.id, name: stored.name, models: stored.models, isMaster: false, accountId: stored.accountId };
  }

  private async lookUp(id: string): Promise<StoredApiKey | undefined> {
    const now = Date.now();
    const missedAt = this.unknown.get(id);
    if (missedAt !== undefined && now - missedAt < NEGATIVE_TTL_MS) return undefined;
    const stored = await this.repository.findById(id);
    if (stored) {
      this.keys.set(id, stored);
      this.unknown.delete(id);
      return stored;
    }
    if (this.unknown.size >= NEGATIVE_LIMIT) this.unknown.clear();
    this.unknown.set(id, now);
    return undefined;
  }
}
