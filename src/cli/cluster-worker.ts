/**
 * One worker of `gengate start --workers N`: a whole gateway on the shared port, which shares
 * with its siblings, through the primary, what one process would keep in memory — change
 * notices and the limit counters (unless PostgreSQL / Redis already carry them) — and journals
 * its usage in a file of its own (the journal's file names carry the pid). It reports to the
 * primary once listening, drains when told, and exits with the primary.
 */
import cluster from 'node:cluster';
import { buildApp } from '../app.js';
import type { GatewayConfig } from '../config/types.js';
import { createLogger } from '../observability/logger.js';
import { processEndpoint } from './cluster-messages.js';
import { IpcChangeNotifier } from './ipc-change-notifier.js';
import { IpcCounterStore } from './ipc-counter-store.js';
import { type Drainer, drainOnSignals, listenQuietly } from './serve-gateway.js';

export async function startWorker(config: GatewayConfig): Promise<void> {
  const endpoint = processEndpoint();
  // Told to stop while still starting: done once listening (the drain needs the server).
  let told: 'drain' | 'exit-now' | undefined;
  let drainer: Drainer | undefined;
  endpoint.onMessage((message) => {
    if (message.gengate !== 'drain' && message.gengate !== 'exit-now') return;
    told = told === 'exit-now' ? told : message.gengate;
    if (!drainer) return;
    if (told === 'drain') drainer.drain('the primary is stopping');
    else drainer.exitNow('the primary was signalled twice');
  });
  // Which worker wrote a log line (its id grows with every restart; the pid stays out of client answers).
  const logger = createLogger(config.logLevel, config.logFormat).child({ worker: cluster.worker?.id });
  const gateway = await buildApp(config, { logger, siblings: { notifier: new IpcChangeNotifier(endpoint), counters: new IpcCounterStore(endpoint) } });
  try {
    const address = await listenQuietly(gateway);
    drainer = drainOnSignals(gateway);
    const channels = gateway.registry.channels.map((channel) => ({
      name: channel.name,
      config: { provider: channel.config.provider },
      enabled: channel.enabled,
      fallbackOnly: channel.fallbackOnly,
    }));
    endpoint.send({ gengate: 'listening', address, channels });
    if (told === 'drain') drainer.drain('the primary is stopping');
    else if (told === 'exit-now') drainer.exitNow('the primary was signalled twice');
  } catch (error) {
    await gateway.close().catch(() => {});
    throw error;
  }
}
