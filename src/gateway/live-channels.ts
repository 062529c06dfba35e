/**
 * Keeps the channel registry equal to its sources: the channels of the configuration (YAML and
 * environment, fixed for the process's life) followed by the channels stored in the database
 * (changed at runtime through the admin API). A `channels` invalidation reloads the stored ones
 * and swaps the registry's snapshot; a failed reload keeps the channels in force. At start
 * there is nothing in force to keep: a stored channel that cannot be read (its credentials
 * sealed under another secret key) stops the start with an error naming it.
 */
import type { Logger } from 'pino';
import type { ChannelDefinition } from '../config/types.js';
import type { ChannelRegistry } from '../routing/channel-registry.js';
import type { InvalidationBus } from '../store/invalidation-bus.js';

interface ChannelSources {
  /** From the configuration file and the environment; read-only at runtime. */
  configured: readonly ChannelDefinition[];
  /** From the store, read again on every reload. */
  stored?: () => Promise<ChannelDefinition[]>;
  /** Readies what the channels about to go in force need (their providers' adapters, loaded on first use). */
  prepare?: (channels: readonly ChannelDefinition[]) => Promise<void>;
}

export class LiveChannels {
  private unsubscribe?: () => void;
  private reloading?: Promise<void>;
  private again = false;

  constructor(
    private readonly registry: ChannelRegistry,
    private readonly sources: ChannelSources,
    private readonly bus: InvalidationBus,
    private readonly logger: Logger,
  ) {}

  /** Puts the channels in force; throws (without logging) when the stored ones cannot be read. */
  async start(): Promise<void> {
    await this.apply();
    this.unsubscribe = this.bus.subscribe('channels', () => {
      this.reload().catch(() => undefined);
    });
  }

  stop(): void {
    this.unsubscribe?.();
  }

  /** Reads the sources and puts them in force; overlapping calls coalesce into one more read. */
  reload(): Promise<void> {
    if (this.reloading) {
      this.again = true;
      return this.reloading;
    }
    this.reloading = this.readAndReplace().finally(() => {
      this.reloading = undefined;
      if (this.again) {
        this.again = false;
        void this.reload();
      }
    });
    return this.reloading;
  }

  /** Resolves once the reloads under way (including ones they queued) are done, whatever their outcome. */
  async settled(): Promise<void> {
    while (this.reloading) await this.reloading.catch(() => undefined);
  }

  private async readAndReplace(): Promise<void> {
    try {
      await this.apply();
    } catch (error) {
      this.logger.error({ err: error }, 'reloading channels failed; the channels in force stay');
      throw error;
    }
  }

  private async apply(): Promise<void> {
    const stored = this.sources.stored ? await this.sources.stored() : [];
    const configuredNames = new Set(this.sources.configured.map((c) => c.name));
    const clashing = stored.filter((c) => configuredNames.has(c.name));
    if (clashing.length > 0) this.logger.warn({ channels: clashing.map((c) => c.name) }, 'stored channels named like configured ones are ignored');
    const channels = [...this.sources.configured, ...stored.filter((c) => !configuredNames.has(c.name))];
    await this.sources.prepare?.(channels);
    const snapshot = this.registry.replace(channels);
    this.logger.debug({ version: snapshot.version, channels: snapshot.channels.length }, 'channels in force');
  }
}
