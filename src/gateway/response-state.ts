/**
 * The Responses API's conversation state (`ResponseStateServices`): stored responses owned by
 * the key's account (or by the key itself when it has none), so another account's id is
 * unknown; expired ones are unknown too, and a bounded sweep deletes them. A conversation is
 * walked up its `previous_response_id` links within `CONVERSATION_LIMITS`: a longer or larger one,
 * or one whose earlier response was deleted or has expired, is the client's 400 naming
 * `previous_response_id` rather than a truncated history the model would misread. An
 * `item_reference` outside that conversation is looked up by item id among the account's live
 * responses, within the same byte bound.
 */
import { controlCharacterAt } from '../core/client-strings.js';
import { GatewayError } from '../core/errors.js';
import type { AuthenticatedKey } from '../core/key.js';
import type { ResponseItem, SealedReasoning, StoredResponse } from '../core/responses.js';
import type { ChainLink, StoredResponsesRepository } from '../store/stored-responses-repository.js';
import type { ResponseStateServices } from './contract.js';
import type { ReasoningSeal } from './reasoning-seal.js';
import { StoredResponsesCap } from './stored-responses-cap.js';

/** How far back a follow-up may reach; documented in docs/configuration.md (Responses API). */
export const CONVERSATION_LIMITS = {
  /** Responses in one chain, the one continued included. */
  maxResponses: 1_000,
  /** Input and output items of the whole chain. */
  maxItems: 20_000,
  /** Characters of the chain's stored JSON (items and response objects). */
  maxBytes: 128 * 1024 * 1024,
} as const;

/** Longest response id looked up; anything longer (or with control characters) is unknown. */
const MAX_ID_CHARS = 256;
/** Expired responses deleted per statement, and statements per sweep. */
const SWEEP_BATCH = 500;
const SWEEP_BATCHES = 20;
const SWEEP_INTERVAL_MS = 10 * 60_000;

interface ResponseStateDeps {
  repository: StoredResponsesRepository;
  /** Made on first use: the secret key is read (or generated) only when reasoning is sealed or opened. */
  seal: () => ReasoningSeal;
  /** How long a response is kept (`responses.retentionDays`), in seconds: `save` stamps `expiresAt` from it. */
  retentionSeconds: number;
  /** Bytes of stored responses an owner may keep (`responses.maxStoredMiBPerAccount`); 0 for no cap. */
  maxStoredBytesPerOwner?: number;
  /** Unix ms (tests move it). */
  now?: () => number;
  onSweepError?: (error: unknown) => void;
}

/** Whose responses a key sees: its account's, or its own when it has none (operator keys, the master key). */
export function responseOwner(key: AuthenticatedKey): string {
  return key.accountId ?? `key:${key.id}`;
}

function plausibleId(id: string): boolean {
  return typeof id === 'string' && id.length > 0 && id.length <= MAX_ID_CHARS && controlCharacterAt(id) === -1;
}

function conversationError(id: string, why: string): GatewayError {
  return new GatewayError('invalid_request', `The conversation of previous response '${id}' cannot be continued: ${why}.`, {
    param: 'previous_response_id',
  });
}

export class ResponseState implements ResponseStateServices {
  private readonly now: () => number;
  private readonly cap: StoredResponsesCap;
  private timer?: NodeJS.Timeout;

  constructor(private readonly deps: ResponseStateDeps) {
    this.now = deps.now ?? Date.now;
    this.cap = new StoredResponsesCap(deps.maxStoredBytesPerOwner ?? 0, async (owner) => (await deps.repository.totals(owner)).bytes, this.now);
  }

  async mayStore(key: AuthenticatedKey): Promise<void> {
    await this.cap.check(responseOwner(key));
  }

  async get(key: AuthenticatedKey, id: string): Promise<StoredResponse | undefined> {
    if (!plausibleId(id)) return undefined;
    return this.deps.repository.find(responseOwner(key), id, this.now());
  }

  async conversation(key: AuthenticatedKey, id: string): Promise<ResponseItem[] | undefined> {
    if (!plausibleId(id)) return undefined;
    const { repository } = this.deps;
    // One link more than allowed tells a chain that is too long from one that just fits.
    const chain = await repository.chain(responseOwner(key), id, this.now(), CONVERSATION_LIMITS.maxResponses + 1);
    if (chain.length === 0) return undefined;
    checkBounds(id, chain);
    const items = await repository.itemsOf(chain.map((link) => link.id));
    const history: ResponseItem[] = [];
    for (let i = chain.length - 1; i >= 0; i--) {
      const turn = items.get(chain[i].id);
      // Deleted between the two reads.
      if (!turn) throw conversationError(id, `its earlier response '${chain[i].id}' was deleted or has expired`);
      history.push(...turn.inputItems, ...turn.outputItems);
    }
    return history;
  }

  async items(key: AuthenticatedKey, ids: readonly string[]): Promise<Map<string, ResponseItem>> {
    const found = new Map<string, ResponseItem>();
    const wanted = [...new Set(ids)].filter(plausibleId);
    if (wanted.length === 0) return found;
    const { repository } = this.deps;
    const locations = await repository.locateItems(responseOwner(key), wanted, this.now());
    const sizes = new Map(locations.map((location) => [location.responseId, location.bytes]));
    let bytes = 0;
    for (const size of sizes.values()) bytes += size;
    if (bytes > CONVERSATION_LIMITS.maxBytes) {
      throw new GatewayError(
        'invalid_request',
        `input: the items named by item_reference are in stored responses larger than ${CONVERSATION_LIMITS.maxBytes / 1024 / 1024} MiB together; send the items themselves`,
        { param: 'input' },
      );
    }
    const where = new Map(locations.map((location) => [location.itemId, location.responseId]));
    // A response gone between the two reads leaves its items unknown, as if it had been gone before.
    for (const [responseId, turn] of await repository.itemsOf([...sizes.keys()])) {
      for (const item of [...turn.inputItems, ...turn.outputItems]) {
        if (typeof item.id === 'string' && item.type !== 'item_reference' && where.get(item.id) === responseId) found.set(item.id, item);
      }
    }
    return found;
  }

  /** The retention setting is the store's: whatever `expiresAt` the caller put, the row expires `retentionSeconds` after `createdAt`. */
  async save(key: AuthenticatedKey, response: StoredResponse): Promise<void> {
    const stamped = { ...response, accountId: responseOwner(key), expiresAt: response.createdAt + this.deps.retentionSeconds };
    const grown = await this.deps.repository.save({ owner: responseOwner(key), accountId: key.accountId, keyId: key.id }, stamped);
    this.cap.saved(responseOwner(key), grown);
  }

  async remove(key: AuthenticatedKey, id: string): Promise<boolean> {
    if (!plausibleId(id)) return false;
    return this.deps.repository.remove(responseOwner(key), id, this.now());
  }

  seal(reasoning: SealedReasoning): string {
    return this.deps.seal().seal(reasoning);
  }

  open(encryptedContent: string): SealedReasoning | undefined {
    return this.deps.seal().open(encryptedContent);
  }

  /** Deletes expired responses, at most `SWEEP_BATCH × SWEEP_BATCHES` per call; returns how many. */
  async sweep(): Promise<number> {
    let deleted = 0;
    for (let batch = 0; batch < SWEEP_BATCHES; batch++) {
      const count = await this.deps.repository.deleteExpired(this.now(), SWEEP_BATCH);
      deleted += count;
      if (count < SWEEP_BATCH) break;
    }
    return deleted;
  }

  /** Sweeps now and every ten minutes until `stop`. */
  start(): void {
    const run = () => {
      this.sweep().catch((error: unknown) => this.deps.onSweepError?.(error));
    };
    run();
    this.timer = setInterval(run, SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}

function checkBounds(id: string, chain: readonly ChainLink[]): void {
  if (chain.length > CONVERSATION_LIMITS.maxResponses) {
    throw conversationError(id, `it is longer than ${CONVERSATION_LIMITS.maxResponses} responses; start a new conversation with the history as input`);
  }
  const oldest = chain[chain.length - 1];
  if (oldest.previousResponseId !== null) {
    throw conversationError(id, `its earlier response '${oldest.previousResponseId}' was deleted or has expired`);
  }
  let items = 0;
  let bytes = 0;
  for (const link of chain) {
    items += link.itemCount;
    bytes += link.bytes;
  }
  if (items > CONVERSATION_LIMITS.maxItems) {
    throw conversationError(id, `it holds ${items} items, more than ${CONVERSATION_LIMITS.maxItems}; start a new conversation with the history as input`);
  }
  if (bytes > CONVERSATION_LIMITS.maxBytes) {
    throw conversationError(id, `it is larger than ${CONVERSATION_LIMITS.maxBytes / 1024 / 1024} MiB; start a new conversation with the history as input`);
  }
}
