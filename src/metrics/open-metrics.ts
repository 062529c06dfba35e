/**
 * Puts metrics and the timing headers on a gateway, as configured (`metrics.*`). Metrics off
 * installs no lifecycle hook and serves no `/metrics`; timing headers off as well installs
 * nothing at all. `observability()` is called before the usage recorder is built (its database
 * writes are timed), `install()` once the HTTP server and the lifecycle exist.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { MetricsSettings } from '../config/metrics-settings.js';
import type { CallLifecycle } from '../gateway/call-lifecycle.js';
import type { TaskQueueStats } from '../store/task-queue-stats.js';
import { CallClocks } from './call-clocks.js';
import type { Logger } from 'pino';
import { getOrMake, type HistogramSeries } from './fast-metrics.js';
import { type MetricFamilies, metricFamilies } from './metric-names.js';
import { type LabelSources, MetricsHooks } from './metrics-hooks.js';
import { listenForMetrics, registerMetricsRoute } from './metrics-endpoint.js';
import { registerScrapeGauges } from './scrape-gauges.js';
import { installTimingHeaders } from './timing-headers.js';

export interface MetricsSources extends LabelSources {
  http: FastifyInstance;
  lifecycle: CallLifecycle;
  channels(): readonly string[];
  recorder: { pending: number; openCalls: number; deadLettered: number };
  webhookFailures(): { attempts: number; abandoned: number };
  queueStats(now: number): Promise<TaskQueueStats>;
  /** The channels' active probes, when the gateway runs any. */
  probes?(): Array<{ channel: string; ok: boolean; latencyMs: number | null }>;
  logger: Logger;
}

interface RowWriter<Row> {
  insertMany(rows: Row[]): Promise<unknown>;
}

export class Observability {
  private readonly families?: MetricFamilies;
  private listener?: Server;

  constructor(private readonly settings: MetricsSettings) {
    if (settings.enabled) this.families = metricFamilies();
  }

  /** The usage store with its batch writes timed (itself when metrics are off). */
  timeInserts<Row, W extends RowWriter<Row>>(writer: W): Pick<W, 'insertMany'> {
    const families = this.families;
    if (!families) return writer;
    const ok = families.usageWrite.series({ outcome: 'ok' });
    const failed = families.usageWrite.series({ outcome: 'error' });
    return {
      insertMany: async (rows: Row[]) => {
        const start = performance.now();
        try {
          const result = await writer.insertMany(rows);
          ok.observe((performance.now() - start) / 1000);
          return result;
        } catch (error) {
          failed.observe((performance.now() - start) / 1000);
          throw error;
        }
      },
    } as Pick<W, 'insertMany'>;
  }

  async install(sources: MetricsSources): Promise<void> {
    const { settings, families } = this;
    if (!families && !settings.timingHeaders) return;
    const clocks = new CallClocks();
    if (!families) {
      sources.lifecycle.use(clocks);
      installTimingHeaders(sources.http, { headers: true });
      return;
    }
    const hooks = new MetricsHooks(families, sources);
    // One hook object, so that the clocks are read by the metrics between their updates and their end.
    sources.lifecycle.use({
      attemptStart: (call, route) => {
        clocks.attemptStart(call, route);
        hooks.attemptStart(call, route);
      },
      attemptEnd: (call, route, error) => {
        clocks.attemptEnd(call, route);
        hooks.attemptEnd(call, route, error);
      },
      firstByte: (call) => hooks.firstByte(call),
      firstToken: (call) => hooks.firstToken(call),
      end: (call, ending) => hooks.end(call, ending),
    });
    installTimingHeaders(sources.http, { headers: settings.timingHeaders, observe: overheadObserver(families) });
    countResponses(sources.http, families);

    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    registerScrapeGauges(registry, {
      circuits: () => sources.channels().map((channel) => ({ channel, state: sources.lifecycle.circuit(channel) })),
      streamsOpen: () => hooks.streamsOpen,
      usageBacklog: () => ({ pendingRows: sources.recorder.pending, openCalls: sources.recorder.openCalls, deadLettered: sources.recorder.deadLettered }),
      queueStats: sources.queueStats,
      webhookFailures: sources.webhookFailures,
      probes: sources.probes,
      onQueueStatsError: (error) => sources.logger.warn({ err: error }, 'metrics: reading the task queue figures failed'),
    });
    const own = Object.values(families);
    const render = async (): Promise<string> => {
      let text = '';
      for (const family of own) text += family.render();
      return text + (await registry.metrics());
    };
    if (settings.token) registerMetricsRoute(sources.http, settings.token, render);
    if (settings.listen) {
      this.listener = await listenForMetrics(settings.listen, render, (error) => sources.logger.warn({ err: error }, 'metrics listener error'));
    }
  }

  /** `http://host:port` of the metrics listener, when there is one. */
  get listenUrl(): string | undefined {
    const address = this.listener?.address() as AddressInfo | null | undefined;
    if (!address) return undefined;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }

  async close(): Promise<void> {
    const listener = this.listener;
    if (!listener) return;
    this.listener = undefined;
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  }
}

function overheadObserver(families: MetricFamilies): (call: { subject: { surface: string; operation: string } }, seconds: number) => void {
  const bySurface = new Map<string, Map<string, HistogramSeries>>();
  return (call, seconds) => {
    const { surface, operation } = call.subject;
    const byOperation = getOrMake(bySurface, surface, () => new Map<string, HistogramSeries>());
    const series = getOrMake(byOperation, operation, () => families.overhead.series({ surface, operation }));
    series.observe(seconds);
  };
}

/** Every answer of the main port by route pattern (bounded: the routes registered) and status class. */
function countResponses(http: FastifyInstance, families: MetricFamilies): void {
  const byRoute = new Map<string, Array<ReturnType<MetricFamilies['httpResponses']['series']> | undefined>>();
  http.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const classIndex = Math.min(5, Math.max(1, Math.floor(reply.statusCode / 100)));
    const series = getOrMake(byRoute, route, () => []);
    let counter = series[classIndex];
    if (!counter) {
      counter = families.httpResponses.series({ route, status_class: `${classIndex}xx` });
      series[classIndex] = counter;
    }
    counter.inc();
    done();
  });
}
