/**
 * Answers "which key is this?" from memory on the hot path. Keys (and which accounts are
 * disabled) are loaded whole at start and, as a safety net, every `refreshMs`. In between, every
 * `keys` invalidation — which the store's bus delivers within a poll interval of a change by any
 * process — reads only what changed: the keys stamped with a revision after the one held, and
 * the (few) disabled accounts. Listeners registered with `onChange` hear of every applied read
 * (in-flight calls of a key just revoked are cut there). A key id not yet in memory (created a
 * moment ago) is looked up once in the store, and unknown ids are remembered briefly so a flood
 * of bad keys cannot hammer it.
 */
import { GatewayError } from '../core/errors.js';
import type { ApiKeysRepository, StoredApiKey } from '../store/api-keys-repository.js';
import type { InvalidationBus } from '../store/invalidation-bus.js';
import type { AuthenticatedKey } from '../core/key.js';
import { apiKeyDigest, keyIdOf, sameDigest } from './api-key-format.js';

const NEGATIVE_TTL_MS = 10_000;
const NEGATIVE_LIMIT = 10_000;

interface KeyDirectoryOptions {
  /** Reads what changed on its `keys` topic. */
  bus?: InvalidationBus;
  /** The safety-net reload period (default 30 s). */
  refreshMs?: number;
}

function invalidKey(): GatewayError {
  return new GatewayError('authentication', 'Invalid API key. Pass a valid gengate key.', { code: 'invalid_api_key' });
}

function revokedKey(): GatewayError {
  return new GatewayError('authentication', 'This API key has been revoked.', { code: 'invalid_api_key' });
}

function disabledAccount(): GatewayError {
  return new GatewayError('authentication', 'The account of this API key is disabled.', { code: 'invalid_api_key' });
}

export class KeyDirectory {
  private keys = new Map<string, StoredApiKey>();
  private disabledAccounts = new Set<string>();
  /** The `keys` revision of the store that the keys in memory include. */
  private revision = 0;
  private readonly unknown = new Map<string, number>();
  private readonly masterDigest?: Buffer;
  /** Each stored key's hex hash as bytes, decoded once. */
  private readonly digests = new WeakMap<StoredApiKey, Buffer>();
  private readonly listeners = new Set<() => void>();
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;
  private running?: Promise<void>;
  private queued?: { full: boolean; done: Promise<void> };

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
      this.refresh().catch(() => undefined);
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

  /** Runs `listener` after every read applied (whole or incremental); returns a function that removes it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reads every key again. */
  reload(): Promise<void> {
    return this.sync(true);
  }

  /** Reads the keys changed since the revision held (a whole read when that cannot be done). */
  refresh(): Promise<void> {
    return this.sync(false);
  }

  /**
   * Why a key authenticated earlier may no longer be used (revoked, or its account disabled),
   * as the error to end its calls with; undefined while it may.
   */
  revocationOf(key: AuthenticatedKey): GatewayError | undefined {
    if (key.isMaster) return undefined;
    if (this.keys.get(key.id)?.revokedAt != null) return revokedKey();
    if (key.accountId !== null && this.disabledAccounts.has(key.accountId)) return disabledAccount();
    return undefined;
  }

  /**
   * One read at a time. A request during a read waits for one more read after it (whole if any
   * waiting request asked for that), so a change made while a read was under way is never missed.
   */
  private sync(full: boolean): Promise<void> {
    if (this.queued) {
      this.queued.full ||= full;
      return this.queued.done;
    }
    if (!this.running) return this.run(full);
    const queued = { full, done: Promise.resolve() };
    queued.done = this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.run(queued.full);
      });
    this.queued = queued;
    return queued.done;
  }

  private run(full: boolean): Promise<void> {
    const run = (full ? this.readAll() : this.readChanges()).finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }

  private async readAll(): Promise<void> {
    // The counter first: the keys listed after it include at least every change up to it.
    const revision = await this.repository.revision();
    const [keys, disabled] = await Promise.all([this.repository.list(), this.repository.disabledAccountIds()]);
    const next = new Map<string, StoredApiKey>();
    for (const key of keys) next.set(key.id, key);
    this.keys = next;
    this.disabledAccounts = new Set(disabled);
    this.revision = revision;
    this.changed();
  }

  private async readChanges(): Promise<void> {
    let changed: StoredApiKey[];
    let disabled: string[];
    const revision = await this.repository.revision();
    if (revision === this.revision) return;
    // A counter that went back (a restored database) cannot be followed change by change.
    if (revision < this.revision) return this.readAll();
    try {
      [changed, disabled] = await Promise.all([this.repository.changedSince(this.revision), this.repository.disabledAccountIds()]);
    } catch {
      return this.readAll();
    }
    for (const key of changed) this.keys.set(key.id, key);
    this.disabledAccounts = new Set(disabled);
    this.revision = revision;
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
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
    if (stored.revokedAt !== null) throw revokedKey();
    if (stored.expiresAt !== null && stored.expiresAt <= now) {
      throw new GatewayError('authentication', 'This API key has expired.', { code: 'expired_api_key' });
    }
    if (stored.accountId !== null && this.disabledAccounts.has(stored.accountId)) throw disabledAccount();
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
      this.unknown.delete(id);
      // A read applied meanwhile holds the key as it is now (perhaps revoked): it wins over this older row.
      const known = this.keys.get(id);
      if (known) return known;
      this.keys.set(id, stored);
      return stored;
    }
    if (this.unknown.size >= NEGATIVE_LIMIT) this.unknown.clear();
    this.unknown.set(id, now);
    return undefined;
  }
}
