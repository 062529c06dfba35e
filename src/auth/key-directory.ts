/**
 * Answers "which key is this?" from memory on the hot path. Keys (and which accounts are
 * disabled) are loaded at start and reloaded on every `keys` invalidation — which the store's bus
 * delivers within a poll interval of a change by any process — and, as a safety net, every
 * `refreshMs`. A key id not yet in memory (created a moment ago) is looked up once in the store,
 * and unknown ids are remembered briefly so a flood of bad keys cannot hammer it.
 */
import { GatewayError } from '../core/errors.js';
import type { ApiKeysRepository, StoredApiKey } from '../store/api-keys-repository.js';
import type { InvalidationBus } from '../store/invalidation-bus.js';
import type { AuthenticatedKey } from '../core/key.js';
import { apiKeyDigest, keyIdOf, sameDigest } from './api-key-format.js';

const NEGATIVE_TTL_MS = 10_000;
const NEGATIVE_LIMIT = 10_000;

export interface KeyDirectoryOptions {
  /** Reload on its `keys` topic. */
  bus?: InvalidationBus;
  /** The safety-net reload period (default 30 s). */
  refreshMs?: number;
}

function invalidKey(): GatewayError {
  return new GatewayError('authentication', 'Invalid API key. Pass a valid gengate key.', { code: 'invalid_api_key' });
}

export class KeyDirectory {
  private keys = new Map<string, StoredApiKey>();
  private disabledAccounts = new Set<string>();
  private readonly unknown = new Map<string, number>();
  private readonly masterDigest?: Buffer;
  /** Each stored key's hex hash as bytes, decoded once. */
  private readonly digests = new WeakMap<StoredApiKey, Buffer>();
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private reloading?: Promise<void>;
  private again = false;

  constructor(
    private readonly repository: ApiKeysRepository,
    masterKey: string | undefined,
    private readonly options: KeyDirectoryOptions = {},
  ) {
    if (masterKey) this.masterDigest = apiKeyDigest(masterKey);
  }

  async start(): Promise<void> {
    await this.reload();
    this.unsubscribe = this.options.bus?.subscribe('keys', () => {
      this.reload().catch(() => undefined);
    });
    this.timer = setInterval(() => {
      this.reload().catch(() => undefined);
    }, this.options.refreshMs ?? 30_000);
    this.timer.unref();
  }

  stop(): void {
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * Reads the keys again. A call during a reload waits for one more read after it, so a change
   * made while a read was under way is never missed.
   */
  reload(): Promise<void> {
    if (this.reloading) {
      this.again = true;
      return this.reloading.then(() => this.reloading);
    }
    this.reloading = this.read().finally(() => {
      this.reloading = undefined;
      if (this.again) {
        this.again = false;
        this.reload().catch(() => undefined);
      }
    });
    return this.reloading;
  }

  private async read(): Promise<void> {
    const [keys, disabled] = await Promise.all([this.repository.list(), this.repository.disabledAccountIds()]);
    const next = new Map<string, StoredApiKey>();
    for (const key of keys) next.set(key.id, key);
    this.keys = next;
    this.disabledAccounts = new Set(disabled);
  }

  async authenticate(presented: string | undefined): Promise<AuthenticatedKey> {
    if (!presented) {
      throw new GatewayError('authentication', 'No API key provided. Send it as a Bearer token (or the header your SDK uses).', {
        code: 'missing_api_key',
      });
    }
    const presentedDigest = apiKeyDigest(presented);
    if (this.masterDigest && sameDigest(presentedDigest, this.masterDigest)) {
      return { id: 'master', name: 'master key', models: null, isMaster: true, accountId: null };
    }
    const id = keyIdOf(presented);
    if (!id) throw invalidKey();
    const stored = this.keys.get(id) ?? (await this.lookUp(id));
    if (!stored || !sameDigest(presentedDigest, this.digestOf(stored))) throw invalidKey();
    const now = Date.now();
    if (stored.revokedAt !== null) throw new GatewayError('authentication', 'This API key has been revoked.', { code: 'invalid_api_key' });
    if (stored.expiresAt !== null && stored.expiresAt <= now) {
      throw new GatewayError('authentication', 'This API key has expired.', { code: 'expired_api_key' });
    }
    if (stored.accountId !== null && this.disabledAccounts.has(stored.accountId)) {
      throw new GatewayError('authentication', 'The account of this API key is disabled.', { code: 'invalid_api_key' });
    }
    return { id: stored.id, name: stored.name, models: stored.models, isMaster: false, accountId: stored.accountId };
  }

  private digestOf(stored: StoredApiKey): Buffer {
    let digest = this.digests.get(stored);
    if (!digest) {
      digest = Buffer.from(stored.keyHash, 'hex');
      this.digests.set(stored, digest);
    }
    return digest;
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
