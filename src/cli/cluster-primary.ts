/**
 * The primary of `gengate start --workers N`. It serves no request: it runs the migrations once,
 * forks N workers that share the port (`node:cluster`), and keeps what they must share:
 *
 * - the limit counters when no Redis holds them: one in-memory store, answered over IPC, so
 *   N workers together allow a limit once, not N times (`ipc-counter-store.ts`);
 * - change notices on a SQLite file without Redis: relayed to every worker (`ipc-change-notifier.ts`);
 * - the start banner, the first key and the first-admin link: made and printed once, here,
 *   when every worker is listening.
 *
 * A worker that dies is started again (at once, then with a backoff while replacements die
 * young); its successor folds the dead worker's journal file in at start, as after any crash.
 * A first SIGINT/SIGTERM has every worker drain and exits 0 once all have; a second has them
 * exit at once.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { firstAdminLink } from '../admin/setup-links.js';
import { createApiKey } from '../auth/key-admin.js';
import { ConfigError } from '../config/config-error.js';
import type { GatewayConfig } from '../config/types.js';
import { MemoryCounterStore } from '../limits/memory-counter-store.js';
import { createLogger } from '../observability/logger.js';
import { printStartBanner } from '../start-banner.js';
import { AccountsRepository } from '../store/accounts-repository.js';
import { ApiKeysRepository } from '../store/api-keys-repository.js';
import { openStore, type OpenedStore } from '../store/open-store.js';
import { type BannerChannel, ignoreSendError, isGengateMessage, type PrimaryMessage, type WorkerMessage } from './cluster-messages.js';
import { nextQuickDeaths, restartDelayMs } from './restart-backoff.js';
import { serveCounters } from './serve-counters.js';
import { bannerBase } from './serve-gateway.js';

/** Past the workers' own drain deadline and abort grace, a worker still running is killed. */
const STOP_MARGIN_MS = 10_000;

interface Slot {
  worker?: Worker;
  startedAt: number;
  quickDeaths: number;
  listened: boolean;
  restart?: NodeJS.Timeout;
}

export async function startPrimary(config: GatewayConfig, count: number): Promise<void> {
  if (config.databaseUrl === 'sqlite::memory:') {
    throw new ConfigError('--workers above 1 needs a database the workers share: sqlite::memory: is one database per process');
  }
  const logger = createLogger(config.logLevel, config.logFormat).child({ role: 'primary' });
  // Migrations run here, once, before any worker opens the database.
  const store = await openStore(config.databaseUrl);
  new Primary(config, count, store, logger).start();
}

class Primary {
  private readonly slots: Slot[];
  private readonly counters = new MemoryCounterStore();
  private banner?: { address: string; channels: BannerChannel[] };
  private bannerPrinted = false;
  private stopping = false;
  private exitCode = 0;

  constructor(
    private readonly config: GatewayConfig,
    count: number,
    private store: OpenedStore | undefined,
    private readonly logger: Logger,
  ) {
    this.slots = Array.from({ length: count }, () => ({ startedAt: 0, quickDeaths: 0, listened: false }));
  }

  start(): void {
    let signalled = false;
    const onSignal = (signal: string): void => {
      if (signalled) return this.stop('exit-now', signal);
      signalled = true;
      this.stop('drain', signal);
    };
    process.on('SIGINT', () => onSignal('SIGINT'));
    process.on('SIGTERM', () => onSignal('SIGTERM'));
    for (const slot of this.slots) this.fork(slot);
  }

  private fork(slot: Slot): void {
    slot.restart = undefined;
    slot.listened = false;
    slot.startedAt = Date.now();
    const worker = cluster.fork();
    slot.worker = worker;
    worker.on('message', (message: unknown) => {
      if (isGengateMessage(message)) this.onMessage(slot, worker, message as WorkerMessage);
    });
    worker.on('exit', (code, signal) => this.onExit(slot, worker, code, signal));
  }

  private onMessage(slot: Slot, worker: Worker, message: WorkerMessage): void {
    if (message.gengate === 'notice') this.broadcast({ gengate: 'notice' });
    else if (message.gengate === 'counters') {
      void serveCounters(this.counters, message).then((reply) => {
        if (reply && worker.isConnected()) worker.send(reply, ignoreSendError);
      });
    } else if (message.gengate === 'listening') {
      slot.listened = true;
      this.banner ??= { address: message.address, channels: message.channels };
      if (!this.bannerPrinted && !this.stopping && this.slots.every((each) => each.listened)) void this.printBanner();
    }
  }

  private broadcast(message: PrimaryMessage): void {
    for (const slot of this.slots) {
      if (slot.worker?.isConnected()) slot.worker.send(message, ignoreSendError);
    }
  }

  private onExit(slot: Slot, worker: Worker, code: number | null, signal: string | null): void {
    if (slot.worker !== worker) return;
    slot.worker = undefined;
    if (this.stopping) {
      if (code !== 0) this.exitCode = 1;
      return this.exitOnceAllStopped();
    }
    if (!this.bannerPrinted && !slot.listened) {
      // A worker that cannot start would fail the same way again: the start fails, as a single process's would.
      this.logger.error({ worker: worker.id, code, signal }, 'a worker failed to start; stopping');
      this.exitCode = 1;
      return this.stop('drain', 'a worker failed to start');
    }
    slot.quickDeaths = nextQuickDeaths(slot.quickDeaths, Date.now() - slot.startedAt);
    const delayMs = restartDelayMs(slot.quickDeaths);
    this.logger.warn({ worker: worker.id, code, signal, restartInMs: delayMs }, 'worker exited; starting a replacement');
    slot.restart = setTimeout(() => this.fork(slot), delayMs);
  }

  private async printBanner(): Promise<void> {
    this.bannerPrinted = true;
    const { address, channels } = this.banner!;
    const store = this.store!;
    try {
      const keys = new ApiKeysRepository(store.db);
      let firstKey: string | undefined;
      if (!this.config.masterKey && (await keys.count()) === 0) {
        firstKey = (await createApiKey(keys, { name: 'first key' })).key;
        // The workers hear of the new key now rather than at their next poll.
        this.broadcast({ gengate: 'notice' });
      }
      const adminLink = await firstAdminLink(new AccountsRepository(store.db), bannerBase(this.config, address));
      printStartBanner(this.config, { channels }, address, firstKey, adminLink, this.slots.length);
    } catch (error) {
      this.logger.error({ err: error }, 'the first key or admin link could not be made');
      this.exitCode = 1;
      this.stop('drain', 'start failed');
    } finally {
      this.store = undefined;
      await store.close().catch(() => undefined);
    }
  }

  private stop(how: 'drain' | 'exit-now', reason: string): void {
    if (how === 'exit-now') this.exitCode = 1;
    if (!this.stopping) {
      this.stopping = true;
      this.logger.info({ reason, workers: this.slots.length }, how === 'drain' ? 'stopping: every worker drains' : 'stopping now');
      const killAfter = setTimeout(
        () => {
          for (const slot of this.slots) slot.worker?.process.kill('SIGKILL');
        },
        this.config.server.drainDelayMs + this.config.server.drainTimeoutMs + STOP_MARGIN_MS,
      );
      killAfter.unref();
    }
    for (const slot of this.slots) clearTimeout(slot.restart);
    this.broadcast({ gengate: how });
    this.exitOnceAllStopped();
  }

  private exitOnceAllStopped(): void {
    if (this.slots.some((slot) => slot.worker !== undefined)) return;
    const close = this.store?.close() ?? Promise.resolve();
    void close.catch(() => undefined).then(() => process.exit(this.exitCode));
  }
}
