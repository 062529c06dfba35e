/**
 * Keeps the catalog equal to its sources: the shipped catalog, gengate.yaml's `models:` (fixed
 * for the process's life), then the overrides stored in the database (changed at runtime
 * through the admin API). A `catalog` invalidation reads the stored ones again, swaps the
 * catalog's models in place, then reloads the channels (the sandbox fallback serves every
 * catalog model). A stored override that no longer checks is skipped with a warning.
 */
import type { Logger } from 'pino';
import { ConfigError } from '../config/config-error.js';
import { applyModelOverrides, shippedModelCatalog } from '../config/load-model-catalog.js';
import { parseModelOverride } from '../config/parse-model-entry.js';
import type { CatalogEntry, ModelOverride } from '../config/types.js';
import type { Catalog } from '../routing/catalog.js';
import type { InvalidationBus } from '../store/invalidation-bus.js';

interface CatalogSources {
  /** gengate.yaml's `models:`. */
  configured: readonly ModelOverride[];
  /** The stored overrides, read again on every reload (as stored: checked here). */
  stored: () => Promise<Array<Record<string, unknown>>>;
}

/** The catalog's models: shipped, then configured, then each stored override that checks. */
export function catalogEntries(configured: readonly ModelOverride[], stored: ReadonlyArray<Record<string, unknown>>, logger?: Logger): CatalogEntry[] {
  let entries = applyModelOverrides(shippedModelCatalog().models, configured);
  for (const raw of stored) {
    try {
      entries = applyModelOverrides(entries, [parseModelOverride(raw, 'stored model override')], 'stored model override');
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      logger?.warn({ model: raw.id, err: error.message }, 'stored model override skipped');
    }
  }
  return entries;
}

export class LiveCatalog {
  private unsubscribe?: () => void;

  constructor(
    private readonly catalog: Catalog,
    private readonly sources: CatalogSources,
    private readonly bus: InvalidationBus,
    /** Runs after each change of the catalog (the channel reload). */
    private readonly changed: () => Promise<void>,
    private readonly logger: Logger,
  ) {}

  /** Loads the stored overrides (before the channels are first built), then follows `catalog` invalidations. */
  async start(): Promise<void> {
    await this.load();
    this.unsubscribe = this.bus.subscribe('catalog', () => {
      this.reload().catch((error) => this.logger.error({ err: error }, 'reloading the model catalog failed; the models in force stay'));
    });
  }

  stop(): void {
    this.unsubscribe?.();
  }

  /** Reads the sources, puts the catalog in force, then reloads what derives from it. */
  async reload(): Promise<void> {
    await this.load();
    await this.changed();
  }

  private async load(): Promise<void> {
    const stored = await this.sources.stored();
    this.catalog.replace(catalogEntries(this.sources.configured, stored, this.logger));
  }
}
