/**
 * `gengate start`: builds the gateway, listens, prints the start banner, drains on SIGINT/SIGTERM.
 * With `--workers N` (or `server.workers`) above 1, this process becomes the primary of N
 * workers sharing the port (`cluster-primary.ts`), and each worker runs `cluster-worker.ts`.
 */
import cluster from 'node:cluster';
import { firstAdminLink } from '../admin/setup-links.js';
import { createApiKey } from '../auth/key-admin.js';
import type { GatewayConfig } from '../config/types.js';
import { parseWorkers } from '../config/workers-setting.js';
import { createLogger } from '../observability/logger.js';
import { printStartBanner } from '../start-banner.js';
import { bannerBase, drainOnSignals, listenQuietly } from './serve-gateway.js';
import { CONFIG_OPTION, parseCommandLine } from './parse-command-line.js';
import { resolveWorkers } from './worker-count.js';

const START_OPTIONS = { ...CONFIG_OPTION, workers: { type: 'string' } } as const;

export async function startCommand(args: string[], loadConfig: (configPath: string | undefined) => GatewayConfig): Promise<void> {
  const { values } = parseCommandLine('start', args, START_OPTIONS, { min: 0, max: 0 });
  const loaded = loadConfig(values.config);
  if (cluster.isWorker) return (await import('./cluster-worker.js')).startWorker(loaded);
  const workers = resolveWorkers(values.workers !== undefined ? parseWorkers(values.workers, '--workers') : (loaded.server.workers ?? 1));
  if (workers > 1) return (await import('./cluster-primary.js')).startPrimary(loaded, workers);
  await start(loaded);
}

async function start(config: GatewayConfig): Promise<void> {
  // Loaded here: a cluster primary never builds a gateway, so it never loads one.
  const { buildApp } = await import('../app.js');
  const gateway = await buildApp(config, { logger: createLogger(config.logLevel, config.logFormat) });
  try {
    const address = await listenQuietly(gateway);
    // Only once listening: a first key created by a start that then failed would never be shown.
    let firstKey: string | undefined;
    if (!config.masterKey && (await gateway.keys.count()) === 0) {
      firstKey = (await createApiKey(gateway.keys, { name: 'first key' })).key;
    }
    const adminLink = await firstAdminLink(gateway.accounts, bannerBase(config, address));
    // Before the banner: whoever waits for it (a supervisor, a test) may signal at once.
    drainOnSignals(gateway);
    printStartBanner(config, gateway.registry, address, firstKey, adminLink);
  } catch (error) {
    await gateway.close().catch(() => {});
    throw error;
  }
}
