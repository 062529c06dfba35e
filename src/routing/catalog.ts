/**
 * The public model ids the gateway knows, the operations each serves, who makes it and its
 * price: `catalog/models.yaml`, with gengate.yaml's `models:` changes and additions. Upstream
 * names reached through configured channels are served too, but only catalog ids are listed
 * and priced.
 */
import { applyModelOverrides, shippedModelCatalog } from '../config/load-model-catalog.js';
import type { CatalogEntry, ModelOverride } from '../config/types.js';
import type { Operation } from '../core/operation.js';
import { type IntegerPrice, integerPrice } from './integer-price.js';

export type { CatalogEntry };

export class Catalog {
  private byId = new Map<string, CatalogEntry>();
  /** Each priced model's price as integers, converted once here (the ledger prices calls with it). */
  private prices = new Map<string, IntegerPrice>();

  /** With no arguments, the shipped catalog as it is. */
  constructor(
    entries: readonly CatalogEntry[] = shippedModelCatalog().models,
    private readonly listedAt: number = shippedModelCatalog().listingDate,
  ) {
    for (const entry of entries) this.byId.set(entry.id, entry);
    this.prices = integerPrices(entries);
  }

  /** The shipped catalog with the configuration's `models:` applied. */
  static withOverrides(overrides: readonly ModelOverride[]): Catalog {
    return new Catalog(applyModelOverrides(shippedModelCatalog().models, overrides));
  }

  /**
   * Puts a new set of models in force (stored overrides changed): the map is built whole, then
   * swapped, so a reader sees either the old catalog or the new one. Everything holding this
   * object (the call lifecycle, the task engine, model lists) sees the change at once.
   */
  replace(entries: readonly CatalogEntry[]): void {
    const prices = integerPrices(entries);
    this.byId = new Map(entries.map((entry) => [entry.id, entry]));
    this.prices = prices;
  }

  get(id: string): CatalogEntry | undefined {
    return this.byId.get(id);
  }

  /** A catalog model's price as integers (`routing/integer-price.ts`); none for an unpriced or unknown model. */
  priceOf(id: string): IntegerPrice | undefined {
    return this.prices.get(id);
  }

  all(): CatalogEntry[] {
    return [...this.byId.values()];
  }

  /** The operations a catalog model serves (none for an id outside the catalog). */
  operationsOf(id: string): readonly Operation[] {
    return this.byId.get(id)?.operations ?? [];
  }

  /** The catalog ids that serve an operation. */
  servingOperation(operation: Operation): string[] {
    return this.all()
      .filter((entry) => entry.operations.includes(operation))
      .map((entry) => entry.id);
  }

  listingDate(): number {
    return this.listedAt;
  }
}

/** Prices were checked where they were set (`parse-model-entry.ts`): a price finer than its unit here is a programming error. */
function integerPrices(entries: readonly CatalogEntry[]): Map<string, IntegerPrice> {
  const prices = new Map<string, IntegerPrice>();
  for (const entry of entries) if (entry.price) prices.set(entry.id, integerPrice(entry.price));
  return prices;
}
