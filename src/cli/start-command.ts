/** `gengate start`: builds the gateway, listens, prints the start banner, drains on SIGINT/SIGTERM. */
import { buildApp, type GatewayApp } from '../app.js';
import { firstAdminLink } from '../admin/setup-links.js';
import { createApiKey } from '../auth/key-admin.js';
import type { GatewayConfig } from '../config/types.js';
import { createLogger } from '../observability/logger.js';
import { printStartBanner } from '../start-banner.js';
import { CONFIG_OPTION, parseCommandLine } from './parse-command-line.js';

export async function startCommand(args: string[], loadConfig: (configPath: string | undefined) => GatewayConfig): Promise<void> {
  const { values } = parseCommandLine('start', args, CONFIG_OPTION, { min: 0, max: 0 });
  await start(loadConfig(values.config));
}

async function start(config: GatewayConfig): Promise<void> {
  const gateway = await buildApp(config, { logger: createLogger(config.logLevel, config.logFormat) });
  let address: string;
  try {
    // Fastify's own "Server listening" line would come before the banner, which says the same.
    const level = gateway.http.log.level;
    gateway.http.log.level = 'warn';
    try {
      address = await gateway.http.listen({ host: config.server.host, port: config.server.port });
    } finally {
      gateway.http.log.level = level;
    }
    // Only once listening: a first key created by a start that then failed would never be shown.
    let firstKey: string | undefined;
    if (!config.masterKey && (await gateway.keys.count()) === 0) {
      firstKey = (await createApiKey(gateway.keys, { name: 'first key' })).key;
    }
    const base = config.media.publicBaseUrl ?? address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
    const adminLink = await firstAdminLink(gateway.accounts, base);
    // Before the banner: whoever waits for it (a supervisor, a test) may signal at once.
    drainOnSignals(gateway, config.server.drainTimeoutMs);
    printStartBanner(config, gateway.registry, address, firstKey, adminLink);
  } catch (error) {
    await gateway.close().catch(() => {});
    throw error;
  }
}

function drainOnSignals(gateway: GatewayApp, drainTimeoutMs: number): void {
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      // A second signal: the person wants out now. What was journaled is folded in at the next
      // start, and calls still open then are closed as interrupted.
      gateway.flushForExit();
      gateway.logger.warn({ signal }, 'second signal: exiting now; unfinished requests will be recorded as interrupted at the next start');
      process.exit(1);
    }
    stopping = true;
    gateway.logger.info({ signal, drainTimeoutMs }, 'draining: finishing open requests and flushing usage (a second signal exits at once)');
    gateway
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        gateway.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}
