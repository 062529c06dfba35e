/**
 * The per-account cap on stored responses (`responses.maxStoredMiBPerAccount`): a request that
 * would store a response is refused before any upstream is called once its owner keeps more
 * than the cap. The owner's total is read from the store at most once per `REFRESH_MS` per
 * process and grown by each save in between, so the cap costs one indexed read per owner per
 * window, and a fleet can pass it by at most that window's saves.
 */
import { GatewayError } from '../core/errors.js';

const REFRESH_MS = 10_000;
/** Owners remembered per process; past it the memory starts again. */
const MAX_OWNERS = 10_000;

interface Known {
  bytes: number;
  readAt: number;
}

export class StoredResponsesCap {
  private readonly known = new Map<string, Known>();

  constructor(
    private readonly maxBytes: number,
    private readonly readTotal: (owner: string) => Promise<number>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws a 400 naming `store` when the owner keeps more than the cap; nothing when there is no cap. */
  async check(owner: string): Promise<void> {
    if (this.maxBytes === 0) return;
    let known = this.known.get(owner);
    if (known === undefined || this.now() - known.readAt >= REFRESH_MS) {
      if (this.known.size >= MAX_OWNERS) this.known.clear();
      known = { bytes: await this.readTotal(owner), readAt: this.now() };
      this.known.set(owner, known);
    }
    if (known.bytes >= this.maxBytes) {
      const mib = Math.floor(this.maxBytes / 1024 / 1024);
      throw new GatewayError(
        'invalid_request',
        `This account keeps ${mib} MiB of stored responses, its limit: delete some (DELETE /v1/responses/{id}), wait for them to expire, or send store: false.`,
        { param: 'store', code: 'stored_responses_limit_reached' },
      );
    }
  }

  /** A save of `bytes` more for the owner, counted until the next read. */
  saved(owner: string, bytes: number): void {
    const known = this.known.get(owner);
    if (known) known.bytes += bytes;
  }
}
