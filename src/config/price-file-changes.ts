/**
 * What a price file would change in the catalog in force: for each catalog model the file has,
 * the fields whose value differs (one line each, `price.input 1.25 → 1.5`), and the override that
 * makes the change (those fields only, with the file as the price's source). Models the file
 * lacks, and fields it does not state, stay as they are.
 */
import { entryFor, type ImportedModel, importedModel, type PriceFile } from './litellm-price-file.js';
import type { CatalogEntry, ModelOverride, ModelPrice, PriceSource } from './types.js';

export interface ModelChange {
  id: string;
  /** The file's id for it (`gemini/gemini-2.5-pro`). */
  key: string;
  /** One line per field changed. */
  lines: string[];
  /** The changed fields, to store over the model's stored override. */
  override: ModelOverride;
  /** Where the values were read (the override's priceSource when a price changed), for the audit entry. */
  source: PriceSource;
}

const PRICE_FIELDS = ['input', 'output', 'cacheRead', 'cacheWrite', 'perUnit'] as const;

export function priceFileChanges(models: readonly CatalogEntry[], file: PriceFile, source: PriceSource): ModelChange[] {
  const changes: ModelChange[] = [];
  for (const model of models) {
    const found = entryFor(file, model.id);
    if (!found) continue;
    const change = modelChange(model, importedModel(found.entry, `entry ${JSON.stringify(found.key)}`), found.key, source);
    if (change) changes.push(change);
  }
  return changes;
}

/** What the fields read for one catalog model change in it; undefined when nothing differs. */
export function modelChange(model: CatalogEntry, imported: ImportedModel, key: string, source: PriceSource): ModelChange | undefined {
  const lines: string[] = [];
  const override: ModelOverride = { id: model.id };
  const price: Partial<ModelPrice> = {};
  for (const field of PRICE_FIELDS) {
    const next = imported.price?.[field];
    const current = model.price?.[field];
    if (next === undefined || next === current) continue;
    price[field] = next;
    lines.push(`price.${field} ${current ?? '(none)'} → ${next}`);
  }
  const above = imported.price?.above;
  if (above && JSON.stringify(above) !== JSON.stringify(model.price?.above)) {
    price.above = above;
    lines.push(`price.above ${describeTier(model.price?.above)} → ${describeTier(above)}`);
  }
  if (Object.keys(price).length > 0) {
    override.price = price;
    override.priceSource = source;
  }
  for (const field of ['inputTokenLimit', 'outputTokenLimit'] as const) {
    const next = imported[field];
    if (next === undefined || next === model[field]) continue;
    if (field === 'inputTokenLimit' && cutsBelowTier(model, imported, next)) continue;
    override[field] = next;
    lines.push(`${field} ${model[field] ?? '(none)'} → ${next}`);
  }
  const capabilities = imported.capabilities;
  if (capabilities && [...capabilities].sort().join() !== [...(model.capabilities ?? [])].sort().join()) {
    override.capabilities = capabilities;
    lines.push(`capabilities ${model.capabilities ? `[${model.capabilities.join(', ')}]` : '(unknown)'} → [${capabilities.join(', ')}]`);
  }
  return lines.length > 0 ? { id: model.id, key, lines, override, source } : undefined;
}

/**
 * An input limit at or below the model's own long-context price tier, where the catalog's is above
 * it: the files state the default context (Anthropic's 1M context is opt-in, the files say 200k),
 * and taking it would refuse the requests the tier prices. The catalog's limit stays.
 */
function cutsBelowTier(model: CatalogEntry, imported: ImportedModel, next: number): boolean {
  const tier = imported.price?.above ?? model.price?.above;
  return tier !== undefined && next <= tier.threshold && (model.inputTokenLimit ?? 0) > tier.threshold;
}

function describeTier(tier: ModelPrice['above']): string {
  if (!tier) return '(none)';
  const cache = [
    tier.cacheRead === undefined ? '' : ` cacheRead ${tier.cacheRead}`,
    tier.cacheWrite === undefined ? '' : ` cacheWrite ${tier.cacheWrite}`,
  ].join('');
  return `{above ${tier.threshold}: input ${tier.input} output ${tier.output}${cache}}`;
}

/** A stored override with the change laid over it (price fields one by one), as the admin API would store it. */
export function mergeOverride(stored: Record<string, unknown> | undefined, change: ModelOverride): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored, ...change };
  const storedPrice = stored?.price;
  if (change.price && typeof storedPrice === 'object' && storedPrice !== null) merged.price = { ...storedPrice, ...change.price };
  return merged;
}
