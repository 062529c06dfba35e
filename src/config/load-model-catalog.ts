/**
 * The model catalog: the `catalog/` folder shipped with gengate at the package root (found
 * from `src/config/` and from the compiled `dist/config/` alike) — `models.yaml` with the
 * listing date and the first-party vendors' models, and one more file per group of vendors
 * (`catalog/*.yaml`, models only) — then the changes and additions of gengate.yaml's `models:` list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

export const SHIPPED_CATALOG_DIR = fileURLToPath(new URL('../../catalog/', import.meta.url));
export const SHIPPED_CATALOG_PATH = join(SHIPPED_CATALOG_DIR, 'models.yaml');

/** A catalog file far larger than any real one is refused before parsing. */
const MAX_CATALOG_BYTES = 4 * 1024 * 1024;

export function readModelCatalog(path: string, options: { listingDate?: number } = {}): ModelCatalog {
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
  const { listingDate = options.listingDate, models } = document as Record<string, unknown>;
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

/**
 * A catalog folder: `models.yaml` gives the listing date, every `*.yaml` beside it adds models
 * (in name order); an id listed in two files is refused.
 */
export function readModelCatalogDir(dir: string): ModelCatalog {
  const root = readModelCatalog(join(dir, 'models.yaml'));
  const models = [...root.models];
  const seen = new Map(models.map((model) => [model.id, 'models.yaml']));
  const others = readdirSync(dir)
    .filter((name) => name.endsWith('.yaml') && name !== 'models.yaml')
    .sort();
  for (const name of others) {
    for (const model of readModelCatalog(join(dir, name), { listingDate: root.listingDate }).models) {
      const first = seen.get(model.id);
      if (first) throw new ConfigError(`model catalog ${join(dir, name)}: ${model.id} is already listed in ${first}`);
      seen.set(model.id, name);
      models.push(model);
    }
  }
  return { listingDate: root.listingDate, models };
}

/** The catalog shipped with gengate, read once. */
export function shippedModelCatalog(): ModelCatalog {
  shipped ??= readModelCatalogDir(SHIPPED_CATALOG_DIR);
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
