/**
 * What is read, not counted: gauges filled at scrape time by prom-client `collect()` callbacks —
 * circuits per channel, streams open, the usage journal's backlog, the task queues and the
 * webhook outbox. The queue figures come from the database, at most once per `queueStatsTtlMs`
 * whatever the scrape rate (a scrape in between gets the figures read last).
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { TaskQueueStats } from '../store/task-queue-stats.js';

export interface ScrapeSources {
  /** Channel names now configured, and each one's circuit. */
  circuits(): Array<{ channel: string; state: 'closed' | 'open' | 'half-open' }>;
  streamsOpen(): number;
  /** Usage rows waiting for the database, and calls begun and not yet ended. */
  usageBacklog(): { pendingRows: number; openCalls: number; deadLettered: number };
  queueStats(now: number): Promise<TaskQueueStats>;
  webhookFailures(): { attempts: number; abandoned: number };
  /** Active probes of the channels that have them (`gateway/channel-prober.ts`): the last verdict and latency. */
  probes?(): Array<{ channel: string; ok: boolean; latencyMs: number | null }>;
  queueStatsTtlMs?: number;
  onQueueStatsError?(error: unknown): void;
}

const CIRCUIT_STATES = ['closed', 'half-open', 'open'] as const;
const MAX_CIRCUIT_CHANNELS = 500;

export function registerScrapeGauges(registry: Registry, sources: ScrapeSources): void {
  const ttlMs = sources.queueStatsTtlMs ?? 5_000;
  new Gauge({
    name: 'gengate_channel_circuit_state',
    help: "A channel's circuit: 1 for its current state (closed, half-open, open), 0 for the others.",
    labelNames: ['channel', 'state'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { channel, state } of sources.circuits().slice(0, MAX_CIRCUIT_CHANNELS)) {
        for (const name of CIRCUIT_STATES) this.set({ channel, state: name }, name === state ? 1 : 0);
      }
    },
  });
  if (sources.probes) {
    const probes = sources.probes;
    new Gauge({
      name: 'gengate_channel_probe_up',
      help: "Whether a channel's last active probe passed (1) or failed (0); channels without probes are absent.",
      labelNames: ['channel'],
      registers: [registry],
      collect() {
        this.reset();
        for (const { channel, ok } of probes().slice(0, MAX_CIRCUIT_CHANNELS)) this.set({ channel }, ok ? 1 : 0);
      },
    });
    new Gauge({
      name: 'gengate_channel_probe_latency_seconds',
      help: "How long a channel's last active probe took.",
      labelNames: ['channel'],
      registers: [registry],
      collect() {
        this.reset();
        for (const { channel, latencyMs } of probes().slice(0, MAX_CIRCUIT_CHANNELS)) if (latencyMs !== null) this.set({ channel }, latencyMs / 1000);
      },
    });
  }
  new Gauge({
    name: 'gengate_streams_open',
    help: 'Streamed answers in progress in this process.',
    registers: [registry],
    collect() {
      this.set(sources.streamsOpen());
    },
  });
  new Gauge({
    name: 'gengate_usage_journal_backlog',
    help: 'Usage rows journaled and not yet written to the database (this process).',
    registers: [registry],
    collect() {
      this.set(sources.usageBacklog().pendingRows);
    },
  });
  new Gauge({
    name: 'gengate_usage_open_calls',
    help: 'Calls begun and not yet ended (their usage row is still to come).',
    registers: [registry],
    collect() {
      this.set(sources.usageBacklog().openCalls);
    },
  });
  countFrom(
    registry,
    'gengate_usage_dead_lettered_total',
    'Usage rows the database refused, kept in the dead-letter file.',
    () => sources.usageBacklog().deadLettered,
  );
  countFrom(
    registry,
    'gengate_webhook_delivery_failures_total',
    'Client-webhook delivery attempts that failed (this process).',
    () => sources.webhookFailures().attempts,
  );
  countFrom(
    registry,
    'gengate_webhook_deliveries_abandoned_total',
    'Client webhooks given up (dead) by this process.',
    () => sources.webhookFailures().abandoned,
  );

  let cached: { at: number; stats?: TaskQueueStats } = { at: Number.NEGATIVE_INFINITY };
  let reading: Promise<TaskQueueStats | undefined> | undefined;
  const queueStats = async (): Promise<TaskQueueStats | undefined> => {
    const now = Date.now();
    if (now - cached.at < ttlMs) return cached.stats;
    reading ??= sources
      .queueStats(now)
      .then((stats) => {
        cached = { at: now, stats };
        return stats;
      })
      .catch((error: unknown) => {
        sources.onQueueStatsError?.(error);
        cached = { at: now, stats: cached.stats };
        return cached.stats;
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  new Gauge({
    name: 'gengate_task_queue_depth',
    help: 'Unfinished tasks by status (queued, submitted, running) and family (shared by every process on the database).',
    labelNames: ['status', 'family'],
    registers: [registry],
    async collect() {
      const stats = await queueStats();
      this.reset();
      for (const row of stats?.depth ?? []) this.set({ status: row.status, family: row.family }, row.count);
    },
  });
  new Gauge({
    name: 'gengate_task_poll_lag_seconds',
    help: 'How overdue the most overdue task poll is (0 when none is due).',
    registers: [registry],
    async collect() {
      const stats = await queueStats();
      this.set(stats?.oldestDueAt === undefined ? 0 : Math.max(0, (cached.at - stats.oldestDueAt) / 1000));
    },
  });
  new Gauge({
    name: 'gengate_webhook_outbox_depth',
    help: 'Client-webhook deliveries pending in the outbox (shared by every process on the database).',
    registers: [registry],
    async collect() {
      this.set((await queueStats())?.webhookPending ?? 0);
    },
  });
}

/** A counter whose total another object keeps: each scrape adds what grew since the last. */
function countFrom(registry: Registry, name: string, help: string, total: () => number): void {
  let seen = 0;
  new Counter({
    name,
    help,
    registers: [registry],
    collect() {
      const now = total();
      if (now > seen) this.inc(now - seen);
      seen = now;
    },
  });
}
