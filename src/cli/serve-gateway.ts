/** What a single `gengate start` and each cluster worker do alike: listen without Fastify's own line, and drain on signals. */
import type { GatewayApp } from '../app.js';
import type { GatewayConfig } from '../config/types.js';

export async function listenQuietly(gateway: GatewayApp): Promise<string> {
  // Fastify's own "Server listening" line would come before the banner, which says the same.
  const level = gateway.http.log.level;
  gateway.http.log.level = 'warn';
  try {
    return await gateway.http.listen({ host: gateway.config.server.host, port: gateway.config.server.port });
  } finally {
    gateway.http.log.level = level;
  }
}

/** The base of the links the banner prints. */
export function bannerBase(config: GatewayConfig, address: string): string {
  return config.media.publicBaseUrl ?? address.replace('0.0.0.0', '127.0.0.1').replace('[::]', '127.0.0.1');
}

export interface Drainer {
  /** Starts the drain unless one is under way (a worker told by its primary); `delayMs` defaults to `server.drainDelayMs`. */
  drain(reason: string, delayMs?: number): void;
  /** Flushes the journal and exits 1 at once. */
  exitNow(reason: string): never;
}

/** A first SIGINT/SIGTERM drains (then exits 0); a second exits at once. */
export function drainOnSignals(gateway: GatewayApp): Drainer {
  let stopping = false;
  let signalled = false;
  const drainer: Drainer = {
    drain(reason, delayMs) {
      if (stopping) return;
      stopping = true;
      const { drainTimeoutMs } = gateway.config.server;
      const drainDelayMs = delayMs ?? gateway.config.server.drainDelayMs;
      gateway.logger.info(
        { reason, drainDelayMs, drainTimeoutMs },
        'draining: /readyz answers 503; serving for drainDelayMs, then finishing open requests and flushing usage (a second signal exits at once)',
      );
      gateway
        .close({ drainDelayMs })
        .then(() => process.exit(0))
        .catch((error: unknown) => {
          gateway.logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        });
    },
    exitNow(reason) {
      // What was journaled is folded in at the next start, and calls still open then are closed as interrupted.
      gateway.flushForExit();
      gateway.logger.warn({ reason }, 'exiting now; unfinished requests will be recorded as interrupted at the next start');
      process.exit(1);
    },
  };
  const onSignal = (signal: string): void => {
    if (signalled) drainer.exitNow(`second ${signal}`);
    signalled = true;
    // The grace period is for a balancer that is still sending (an orchestrator's SIGTERM); Ctrl-C at a terminal has none to wait for.
    drainer.drain(signal, signal === 'SIGINT' ? 0 : undefined);
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  return drainer;
}
