/**
 * Runs background responses (`background: true`) durably, on the principles of the task engine:
 * the run's row is written before the client hears of it; one process at a time holds its lease
 * (renewed while it runs) and runs it with the surface's runner; a run whose lease ran out — its
 * process was killed — is claimed by the next pass here or on any replica and run again from
 * the start (attempt 2, 3; after `MAX_ATTEMPTS` it ends `failed`). Events the run emits are stored
 * in order (capped per response) for followers, who read them back from the store and are woken
 * at once in this process and by polling across replicas. A cancel ends the run in the store
 * first (its terminal event written with it), then aborts the upstream call where it runs.
 *
 * A task-engine task is submitted upstream once and polled; a response is one upstream call the
 * gateway itself makes, which a crash cuts. So a cut run is re-run, not resumed, and each attempt
 * is its own call with its own usage row: the cut one is journaled `interrupted` (cost 0, with
 * what was known), the re-run is billed for the answer it got. Nothing is billed twice.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { GatewayError } from '../core/errors.js';
import type { AuthenticatedKey } from '../core/key.js';
import type { StoredResponseStatus } from '../core/responses.js';
import { IdleBackoffTimer } from '../core/idle-backoff-timer.js';
import type {
  BackgroundResponseEvent,
  BackgroundResponseJob,
  BackgroundResponseRun,
  BackgroundResponseServices,
  StoredBackgroundEvent,
} from '../gateway/contract.js';
import type { BackgroundResponsesRepository, BackgroundRunRow, EventCaps } from '../store/background-responses-repository.js';
import { BackgroundEventWriter } from './background-event-writer.js';

/** Attempts at one response (the first, and re-runs after crashes) before it ends `failed`. */
export const MAX_ATTEMPTS = 3;
/** What a response keeps of its stream for replay (the terminal event is always kept). */
export const DEFAULT_EVENT_CAPS: EventCaps = { maxEvents: 10_000, maxBytes: 16 * 1024 * 1024 };
/** How long a run's row and stored events are kept after it ended (the stored response itself follows its own retention). */
export const EVENTS_RETENTION_MS = 24 * 3_600_000;

const CLAIM_BATCH = 8;
/** Runs taken over from dead processes are claimed only while this process runs fewer than this (its own creations always run). */
const MAX_TAKEN_OVER_RUNS = 64;
const FOLLOW_BATCH = 200;
const FOLLOW_POLL_MS = 250;
const SWEEP_EVERY_MS = 10 * 60_000;
const STOP_PATIENCE_MS = 5_000;

type Runner = (job: BackgroundResponseJob) => Promise<void>;

interface EngineDeps {
  repository: BackgroundResponsesRepository;
  logger: Logger;
  /** How long a process owns a run without renewing (renewed every third of it). */
  leaseMs: number;
  /** Why a key may no longer be used (revoked, account disabled); undefined while it may. */
  revocationOf(key: AuthenticatedKey): GatewayError | undefined;
  caps?: EventCaps;
  /** The pass that claims runs left by dead processes: every `tickMs` while it finds some, backing off to 2 s. */
  tickMs?: number;
  now?: () => number;
}

interface LocalRun {
  controller: AbortController;
  renew: NodeJS.Timeout;
  writer: BackgroundEventWriter;
  /** Settles once the runner returned and the run let go of everything. */
  done?: Promise<void>;
}

const TERMINAL = new Set<string>(['completed', 'incomplete', 'failed', 'cancelled']);

class RunStopped extends Error {
  constructor(readonly why: 'cancelled' | 'lost' | 'shutdown') {
    super(`background run ${why}`);
  }
}

export class BackgroundResponseEngine implements BackgroundResponseServices {
  /** This process's lease-owner name. */
  readonly owner = `bg-${randomUUID()}`;
  private runner?: Runner;
  private readonly local = new Map<string, LocalRun>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly timer: IdleBackoffTimer;
  private readonly caps: EventCaps;
  private readonly now: () => number;
  private lastSweep = 0;
  private stopping = false;

  constructor(private readonly deps: EngineDeps) {
    this.caps = deps.caps ?? DEFAULT_EVENT_CAPS;
    this.now = deps.now ?? Date.now;
    this.timer = new IdleBackoffTimer(() => this.pass(), { baseMs: deps.tickMs ?? 500, maxIdleMs: 2_000 });
  }

  serve(runner: Runner): void {
    this.runner = runner;
  }

  start(): void {
    this.stopping = false;
    this.timer.start();
  }

  /** Stops claiming, aborts the runs of this process and gives their leases back (the next process runs them at once). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.timer.stop();
    const runs = [...this.local.entries()];
    for (const [, run] of runs) run.controller.abort(new RunStopped('shutdown'));
    await Promise.all(runs.map(([id]) => this.deps.repository.releaseLease(id, this.owner).catch(() => undefined)));
    // The aborted calls end (and record their usage) before the recorder and the store close; a stuck one is not waited for long.
    let timer: NodeJS.Timeout | undefined;
    const patience = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, STOP_PATIENCE_MS);
    });
    await Promise.race([Promise.all(runs.map(([, run]) => run.done)), patience]);
    clearTimeout(timer);
  }

  async create(key: AuthenticatedKey, run: { id: string; requestId: string; body: unknown; stream: boolean }): Promise<void> {
    const now = this.now();
    await this.deps.repository.insert({
      id: run.id,
      keyId: key.id,
      accountId: key.accountId,
      keyJson: JSON.stringify(key),
      requestId: run.requestId,
      body: JSON.stringify(run.body),
      stream: run.stream,
      leaseOwner: this.owner,
      leaseUntil: now + this.deps.leaseMs,
      now,
    });
    const row = await this.deps.repository.get(run.id);
    if (row) this.launch(row);
  }

  async get(id: string): Promise<BackgroundResponseRun | undefined> {
    const row = await this.deps.repository.get(id);
    if (!row) return undefined;
    return {
      status: row.status as StoredResponseStatus,
      stream: row.stream,
      ...(row.finalObject ? { finalObject: JSON.parse(row.finalObject) as Record<string, unknown> } : {}),
    };
  }

  async cancel(id: string, ending: { object: Record<string, unknown>; terminal: BackgroundResponseEvent }): Promise<boolean> {
    const done = await this.deps.repository.finish(
      id,
      undefined,
      { status: 'cancelled', finalObject: JSON.stringify(ending.object), terminal: ending.terminal },
      this.now(),
    );
    if (!done) return false;
    this.local.get(id)?.controller.abort(new RunStopped('cancelled'));
    this.wake(id);
    return true;
  }

  async *follow(id: string, after: number, signal: AbortSignal): AsyncIterable<StoredBackgroundEvent> {
    let cursor = after;
    while (!signal.aborted) {
      // The status first: a terminal one was written with the terminal event, so the read after it sees that event.
      const row = await this.deps.repository.get(id);
      if (!row) return;
      const events = await this.deps.repository.eventsAfter(id, cursor, FOLLOW_BATCH);
      for (const event of events) {
        if (signal.aborted) return;
        yield event;
        cursor = event.sequence;
      }
      if (events.length === FOLLOW_BATCH) continue;
      if (TERMINAL.has(row.status) && events.length === 0) return;
      if (events.length === 0) await this.waitForEvents(id, signal);
    }
  }

  /** Claims runs whose lease ran out and runs them; now and then deletes long-ended runs. */
  private async pass(): Promise<boolean> {
    if (this.stopping || !this.runner) return false;
    const now = this.now();
    if (now - this.lastSweep > SWEEP_EVERY_MS) {
      this.lastSweep = now;
      await this.deps.repository.sweepEnded(now - EVENTS_RETENTION_MS, 1_000).catch((error: unknown) => {
        this.deps.logger.warn({ err: error }, 'background responses sweep failed');
      });
    }
    const room = Math.min(CLAIM_BATCH, MAX_TAKEN_OVER_RUNS - this.local.size);
    if (room <= 0) return false;
    let claimed: BackgroundRunRow[];
    try {
      claimed = await this.deps.repository.claimOrphans(now, room, this.owner, this.deps.leaseMs);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'claiming background responses failed');
      return false;
    }
    for (const row of claimed) {
      this.deps.logger.info({ responseId: row.id, attempt: row.attempts }, 'background response taken over after its process stopped: running it again');
      this.launch(row);
    }
    return claimed.length > 0;
  }

  private launch(row: BackgroundRunRow): void {
    const runner = this.runner;
    if (!runner || this.local.has(row.id)) return;
    const { repository, leaseMs, logger } = this.deps;
    const id = row.id;
    const controller = new AbortController();
    const lose = () => {
      if (!controller.signal.aborted) controller.abort(new RunStopped('lost'));
    };
    const writer = new BackgroundEventWriter({
      append: (events) => repository.append(id, this.owner, events, this.caps, this.now()),
      written: () => this.wake(id),
      lost: (error) => {
        if (error) logger.warn({ err: error, responseId: id }, 'storing background response events failed: the run stops here and is re-run');
        lose();
      },
    });
    const renew = setInterval(
      () => {
        repository
          .renewLease(id, this.owner, this.now() + leaseMs)
          .then((held) => {
            if (!held) lose();
          })
          .catch((error: unknown) => logger.warn({ err: error, responseId: id }, 'renewing a background response lease failed'));
      },
      Math.max(50, Math.floor(leaseMs / 3)),
    );
    renew.unref();
    this.local.set(id, { controller, renew, writer });
    const key = JSON.parse(row.keyJson) as AuthenticatedKey;
    const revoked = this.deps.revocationOf(key);
    const refusal =
      row.attempts > MAX_ATTEMPTS
        ? { code: 'server_error', message: `The gateway stopped ${MAX_ATTEMPTS} times while running this response; it was not run again.` }
        : revoked
          ? { code: 'invalid_api_key', message: revoked.message }
          : undefined;
    const job: BackgroundResponseJob = {
      id,
      key,
      body: JSON.parse(row.body) as unknown,
      stream: row.stream,
      requestId: row.attempts <= 1 ? row.requestId : `${row.requestId}.${row.attempts}`,
      attempt: row.attempts,
      ...(refusal ? { refusal } : {}),
      signal: controller.signal,
      emit: (event) => writer.push(event),
      finish: async (ending) => {
        await writer.flush();
        if (controller.signal.aborted) return false;
        writer.stop();
        const done = await repository.finish(
          id,
          this.owner,
          { status: ending.status, finalObject: JSON.stringify(ending.object), terminal: ending.terminal },
          this.now(),
        );
        this.wake(id);
        return done;
      },
    };
    const started = async () => {
      if (!refusal && row.status === 'queued' && !(await repository.markStarted(id, this.owner, this.now()))) return;
      await runner(job);
    };
    const local = this.local.get(id);
    const done = started()
      .catch((error: unknown) => {
        if (!controller.signal.aborted) logger.error({ err: error, responseId: id }, 'background response runner failed: it is re-run once its lease runs out');
      })
      .finally(() => {
        clearInterval(renew);
        writer.stop();
        this.local.delete(id);
      });
    if (local) local.done = done;
  }

  private wake(id: string): void {
    const waiting = this.listeners.get(id);
    if (!waiting) return;
    this.listeners.delete(id);
    for (const listener of waiting) listener();
  }

  private waitForEvents(id: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let set = this.listeners.get(id);
      if (!set) {
        set = new Set();
        this.listeners.set(id, set);
      }
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        const current = this.listeners.get(id);
        current?.delete(done);
        if (current?.size === 0) this.listeners.delete(id);
        resolve();
      };
      const timer = setTimeout(done, FOLLOW_POLL_MS);
      signal.addEventListener('abort', done, { once: true });
      set.add(done);
    });
  }
}
