/**
 * Checks one model entry, of the shipped catalog file or of gengate.yaml's `models:` list.
 * Errors name the entry (`<where> (<id>)`) and the field.
 */
import type { Operation } from '../core/operation.js';
import { pricePerMillionToMicros, usdToNusd } from '../core/money.js';
import { ConfigError } from './config-error.js';
import type { CatalogEntry, LongContextPrice, ModelCapability, ModelOverride, ModelPrice, PriceSource } from './types.js';

// A record, so that the compiler flags an operation added to the type but not here.
const OPERATIONS: Record<Operation, true> = {
  chat: true,
  embed: true,
  'image.generate': true,
  'image.edit': true,
  'image.remix': true,
  'image.blend': true,
  'image.imagine': true,
  'image.describe': true,
  'image.action': true,
  'video.generate': true,
  'task.get': true,
};
/** Every operation a model entry may name. */
export const KNOWN_OPERATIONS = Object.keys(OPERATIONS) as Operation[];
const FIELDS = new Set(['id', 'operations', 'ownedBy', 'displayName', 'inputTokenLimit', 'outputTokenLimit', 'price', 'capabilities', 'priceSource']);
const PRICE_FIELDS = new Set<keyof ModelPrice>(['input', 'output', 'cacheRead', 'cacheWrite', 'perUnit', 'above']);
const ABOVE_FIELDS = new Set<keyof LongContextPrice>(['threshold', 'input', 'output', 'cacheRead', 'cacheWrite']);
/** Every capability a model may declare (`routing/capabilities.ts` checks them). */
export const KNOWN_CAPABILITIES: readonly ModelCapability[] = ['tools', 'vision', 'pdf', 'json_schema', 'reasoning'];
const MAX_SOURCE_LENGTH = 500;
const PRICE_DATE = /^\d{4}-\d{2}(-\d{2})?$/;
const MAX_ID_LENGTH = 256;

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, where: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new ConfigError(`${where} must be a non-empty string`);
  return value;
}

function tokenLimit(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) throw new ConfigError(`${where} must be a positive integer`);
  return value;
}

function operations(value: unknown, where: string): Operation[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0) throw new ConfigError(`${where} must be a non-empty list of operations`);
  for (const operation of value) {
    if (typeof operation !== 'string' || !Object.hasOwn(OPERATIONS, operation)) {
      throw new ConfigError(`${where}: unknown operation ${JSON.stringify(operation)} (known: ${Object.keys(OPERATIONS).join(', ')})`);
    }
  }
  if (new Set(value).size !== value.length) throw new ConfigError(`${where} names an operation twice`);
  return value as Operation[];
}

function price(value: unknown, where: string): Partial<ModelPrice> | undefined {
  if (value === undefined) return undefined;
  if (!isMapping(value)) throw new ConfigError(`${where} must be a mapping of ${[...PRICE_FIELDS].join(', ')}`);
  const parsed: Partial<ModelPrice> = {};
  for (const [field, amount] of Object.entries(value)) {
    if (!PRICE_FIELDS.has(field as keyof ModelPrice)) throw new ConfigError(`${where}.${field} is not a price field (${[...PRICE_FIELDS].join(', ')})`);
    if (field === 'above') {
      parsed.above = longContextPrice(amount, `${where}.above`);
      continue;
    }
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) throw new ConfigError(`${where}.${field} must be a number ≥ 0 (USD)`);
    checkPriceUnit(field, amount, `${where}.${field}`);
    (parsed as Record<string, number>)[field] = amount;
  }
  return parsed;
}

function longContextPrice(value: unknown, where: string): LongContextPrice {
  if (!isMapping(value)) throw new ConfigError(`${where} must be a mapping of ${[...ABOVE_FIELDS].join(', ')}`);
  for (const field of Object.keys(value)) {
    if (!ABOVE_FIELDS.has(field as keyof LongContextPrice))
      throw new ConfigError(`${where}.${field} is not a field of a long-context tier (${[...ABOVE_FIELDS].join(', ')})`);
  }
  const threshold = tokenLimit(value.threshold, `${where}.threshold`);
  if (threshold === undefined) throw new ConfigError(`${where}.threshold is required (input tokens above which the tier applies)`);
  const tier: LongContextPrice = { threshold, input: 0, output: 0 };
  for (const field of ['input', 'output', 'cacheRead', 'cacheWrite'] as const) {
    const amount = value[field];
    if (amount === undefined) {
      if (field === 'input' || field === 'output') throw new ConfigError(`${where}.${field} is required`);
      continue;
    }
    if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) throw new ConfigError(`${where}.${field} must be a number ≥ 0 (USD)`);
    checkPriceUnit(field, amount, `${where}.${field}`);
    tier[field] = amount;
  }
  return tier;
}

function capabilities(value: unknown, where: string): ModelCapability[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw new ConfigError(`${where} must be a list of capabilities (${KNOWN_CAPABILITIES.join(', ')})`);
  for (const capability of value) {
    if (typeof capability !== 'string' || !KNOWN_CAPABILITIES.includes(capability as ModelCapability)) {
      throw new ConfigError(`${where}: unknown capability ${JSON.stringify(capability)} (known: ${KNOWN_CAPABILITIES.join(', ')})`);
    }
  }
  return [...new Set(value as ModelCapability[])];
}

function priceSource(value: unknown, where: string): PriceSource | undefined {
  if (value === undefined) return undefined;
  if (!isMapping(value)) throw new ConfigError(`${where} must be a mapping of url and date`);
  const { url, date } = value;
  if (typeof url !== 'string' || url === '' || url.length > MAX_SOURCE_LENGTH)
    throw new ConfigError(`${where}.url must be a non-empty string of at most ${MAX_SOURCE_LENGTH} characters`);
  if (typeof date !== 'string' || !PRICE_DATE.test(date)) throw new ConfigError(`${where}.date must be a date, YYYY-MM-DD or YYYY-MM`);
  for (const field of Object.keys(value)) if (field !== 'url' && field !== 'date') throw new ConfigError(`${where}.${field} is not a field (url, date)`);
  return { url, date };
}

/**
 * Prices become integers (`routing/integer-price.ts`): per million tokens in micro-dollars (6
 * decimals), per unit in nano-dollars (9). A finer price cannot be charged exactly: a config error.
 */
function checkPriceUnit(field: string, amount: number, where: string): void {
  try {
    if (field === 'perUnit') usdToNusd(amount, where);
    else pricePerMillionToMicros(amount, where);
  } catch (error) {
    if (error instanceof RangeError) throw new ConfigError(`${error.message} (USD per million tokens: at most 6 decimals; per unit: at most 9)`);
    throw error;
  }
}

/** `where` locates the entry, e.g. `models[3]`; the id is added to every message once known. */
export function parseModelOverride(raw: unknown, where: string): ModelOverride {
  if (!isMapping(raw)) throw new ConfigError(`${where} must be a mapping with at least an id`);
  if (typeof raw.id !== 'string' || raw.id === '' || raw.id.length > MAX_ID_LENGTH || /\s/.test(raw.id)) {
    throw new ConfigError(`${where}.id must be a model id (non-empty, no spaces, at most ${MAX_ID_LENGTH} characters), got ${JSON.stringify(raw.id)}`);
  }
  const at = `${where} (${raw.id})`;
  for (const field of Object.keys(raw)) {
    if (!FIELDS.has(field)) throw new ConfigError(`${at}: unknown field "${field}" (known: ${[...FIELDS].join(', ')})`);
  }
  const override: ModelOverride = { id: raw.id };
  const fields: Omit<ModelOverride, 'id'> = {
    operations: operations(raw.operations, `${at}.operations`),
    ownedBy: text(raw.ownedBy, `${at}.ownedBy`),
    displayName: text(raw.displayName, `${at}.displayName`),
    inputTokenLimit: tokenLimit(raw.inputTokenLimit, `${at}.inputTokenLimit`),
    outputTokenLimit: tokenLimit(raw.outputTokenLimit, `${at}.outputTokenLimit`),
    price: price(raw.price, `${at}.price`),
    capabilities: capabilities(raw.capabilities, `${at}.capabilities`),
    priceSource: priceSource(raw.priceSource, `${at}.priceSource`),
  };
  for (const [field, value] of Object.entries(fields)) if (value !== undefined) (override as unknown as Record<string, unknown>)[field] = value;
  return override;
}

/** A whole model from an entry that adds one: `operations` required, the rest defaulted. */
export function completeModelEntry(entry: ModelOverride, where: string): CatalogEntry {
  if (!entry.operations) throw new ConfigError(`${where} (${entry.id}): a new model needs operations`);
  const complete: CatalogEntry = {
    id: entry.id,
    operations: entry.operations,
    ownedBy: entry.ownedBy ?? 'gengate',
    displayName: entry.displayName ?? entry.id,
  };
  if (entry.inputTokenLimit !== undefined) complete.inputTokenLimit = entry.inputTokenLimit;
  if (entry.outputTokenLimit !== undefined) complete.outputTokenLimit = entry.outputTokenLimit;
  if (entry.price) complete.price = { input: 0, output: 0, ...entry.price };
  if (entry.capabilities) complete.capabilities = entry.capabilities;
  if (entry.priceSource) complete.priceSource = entry.priceSource;
  return complete;
}

/** The model with the override's fields in place of its own (price fields one by one). */
export function mergeModelEntry(model: CatalogEntry, override: ModelOverride): CatalogEntry {
  const { price: priceChange, ...rest } = override;
  const merged: CatalogEntry = { ...model, ...rest };
  if (priceChange) merged.price = { input: 0, output: 0, ...model.price, ...priceChange };
  return merged;
}
