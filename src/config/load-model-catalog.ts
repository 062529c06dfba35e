/**
 * The model catalog: `catalog/models.yaml`, shipped with gengate at the package root (found
 * from `src/config/` and from the compiled `dist/config/` alike), then the changes and
 * additions of gengate.yaml's `models:` list.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { ConfigError } from './config-error.js';
import { completeModelEntry, mergeModelEntry } from './parse-model-entry.js';
import { parseModelOverride } from './parse-model-entry.js';
import type { CatalogEntry, ModelOverride } from './types.js';

interface ModelCatalog {
  /** Unix seconds every model is listed with. */
  listingDate: number;
  models: CatalogEntry[];
}

export const SHIPPED_CATALOG_PATH = fileURLToPath(new URL('../../catalog/models.yaml', import.meta.url));

/** A catalog file far larger than any real one is refused before parsing. */
const MAX_CATALOG_BYTES = 4 * 1024 * 1024;

export function readModelCatalog(path: string): ModelCatalog {
  let document: unknown;
  try {
    const text = readFileSync(path, 'utf8');
    if (text.length > MAX_CATALOG_BYTES) throw new Error(`larger than ${MAX_CATALOG_BYTES} bytes`);
    document = parseYaml(text);
  } catch (error) {
    throw new ConfigError(`model catalog ${path}: ${(error as Error).message}`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new ConfigError(`model catalog ${path}: expected a mapping with listingDate and models`);
  }
  const { listingDate, models } = document as Record<string, unknown>;
  if (typeof listingDate !== 'number' || !Number.isSafeInteger(listingDate) || listingDate < 0) {
    throw new ConfigError(`model catalog ${path}: listingDate must be Unix seconds`);
  }
  if (!Array.isArray(models)) throw new ConfigError(`model catalog ${path}: models must be a list`);
  const seen = new Set<string>();
  const entries = models.map((raw, i) => {
    const where = `model catalog ${path}: models[${i}]`;
    const entry = completeModelEntry(parseModelOverride(raw, where), where);
    if (seen.has(entry.id)) throw new ConfigError(`${where} (${entry.id}): this id is listed twice`);
    seen.add(entry.id);
    return entry;
  });
  return { listingDate, models: entries };
}

let shipped: ModelCatalog | undefined;

/** The catalog shipped with gengate, read once. */
export function shippedModelCatalog(): ModelCatalog {
  shipped ??= readModelCatalog(SHIPPED_CATALOG_PATH);
  return shipped;
}

/** Reads gengate.yaml's `models:` list. */
export function parseModelOverrides(raw: unknown, where = 'models'): ModelOverride[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new ConfigError(`${where} must be a list of models`);
  return raw.map((entry, i) => parseModelOverride(entry, `${where}[${i}]`));
}

/** The models with the overrides applied in order: same id → fields replaced, new id → model added. */
export function applyModelOverrides(models: readonly CatalogEntry[], overrides: readonly ModelOverride[], where = 'models'): CatalogEntry[] {
  const byId = new Map(models.map((model) => [model.id, model]));
  overrides.forEach((override, i) => {
    const existing = byId.get(override.id);
    byId.set(override.id, existing ? mergeModelEntry(existing, override) : completeModelEntry(override, `${where}[${i}]`));
  });
  return [...byId.values()];
}
