/**
 * Reads models.dev's `api.json` (an object of providers, each with its `models` by id; costs in
 * USD per million tokens, `limit`, `modalities`, `tool_call`, `reasoning`, `structured_output`)
 * into the catalog changes a LiteLLM file gives. A model id is read from one provider only: the
 * one `--provider` names, else its vendor's own (the catalog entry's `ownedBy`: openai,
 * anthropic, google…), never a reseller's or a cloud's price. A provider or model entry that is
 * malformed is skipped with a warning naming it; the file as a whole is refused only when it is
 * not a models.dev file at all or too large.
 */
import { ConfigError } from './config-error.js';
import { type ImportedModel, MAX_PRICE_FILE_ENTRIES } from './litellm-price-file.js';
import { type ModelChange, modelChange } from './price-file-changes.js';
import type { CatalogEntry, LongContextPrice, ModelCapability, ModelPrice, PriceSource } from './types.js';
import { flagValue, tokenCount } from './price-file-values.js';

export const MODELS_DEV_URL = 'https://models.dev/api.json';
/** models.dev's legacy long-context field: the whole request at these above 200k input tokens. */
const ABOVE_200K = 200_000;
/** A model has one or two context tiers; far more is not models.dev's shape. */
const MAX_TIERS = 32;
const MAX_SOURCE_URL = 500;

/** `ownedBy` values whose models.dev provider id is not the same word. */
const VENDOR_PROVIDERS: Readonly<Record<string, string>> = {
  meta: 'llama',
  'meta-llama': 'llama',
  mistralai: 'mistral',
  moonshot: 'moonshotai',
  'x-ai': 'xai',
  zhipu: 'zhipuai',
  qwen: 'alibaba',
};

export interface ModelsDevFile {
  /** Each provider's model entries by the id the file gives them. */
  providers: Map<string, Map<string, Record<string, unknown>>>;
  /** One line per provider or model entry skipped because it is not an object. */
  warnings: string[];
}

export interface ModelsDevOptions {
  /** Read every model from this provider's entries instead of its vendor's. */
  provider?: string;
  /** The source of the values read from one provider's entry for a model. */
  source: (provider: string, key: string) => PriceSource;
}

export interface ModelsDevChanges {
  changes: ModelChange[];
  /** Entries skipped as malformed, one line each. */
  warnings: string[];
  /** What was read but not imported, and why (a reseller's listing, a per-unit price), one line each. */
  notes: string[];
}

/** The providers and models of a parsed api.json; refused when it has more entries than a price file. */
export function modelsDevFileOf(document: Record<string, unknown>, where: string): ModelsDevFile {
  const warnings: string[] = [];
  const providers = new Map<string, Map<string, Record<string, unknown>>>();
  let count = 0;
  for (const [providerId, provider] of Object.entries(document)) {
    count += 1;
    if (!isObject(provider) || !isObject(provider.models)) {
      warnings.push(`${where}: provider ${JSON.stringify(providerId)} has no models object: skipped`);
      continue;
    }
    const keys = Object.keys(provider.models);
    count += keys.length;
    if (count > MAX_PRICE_FILE_ENTRIES) throw new ConfigError(`${where}: more than ${MAX_PRICE_FILE_ENTRIES} entries: not a price file`);
    const models = new Map<string, Record<string, unknown>>();
    for (const key of keys) {
      const entry = provider.models[key];
      if (isObject(entry)) models.set(key, entry);
      else warnings.push(`${where}: model ${JSON.stringify(`${providerId}/${key}`)} is not an object: skipped`);
    }
    providers.set(providerId, models);
  }
  if (providers.size === 0 && count > 0) throw new ConfigError(`${where}: no provider with a "models" object: not models.dev's api.json`);
  return { providers, warnings };
}

/** The models.dev provider that is a catalog model's vendor. */
export function vendorProvider(model: Pick<CatalogEntry, 'ownedBy'>): string {
  return VENDOR_PROVIDERS[model.ownedBy] ?? model.ownedBy;
}

export function modelsDevChanges(models: readonly CatalogEntry[], file: ModelsDevFile, options: ModelsDevOptions): ModelsDevChanges {
  if (options.provider !== undefined && !file.providers.has(options.provider))
    throw new ConfigError(`--provider ${options.provider}: no such provider in the file (${[...file.providers.keys()].slice(0, 10).join(', ')}…)`);
  const result: ModelsDevChanges = { changes: [], warnings: [...file.warnings], notes: [] };
  for (const model of models) {
    const provider = options.provider ?? vendorProvider(model);
    const entries = file.providers.get(provider);
    // Aggregators name a model `vendor/id` (openrouter's `openai/gpt-4o-mini`).
    const key = [model.id, `${model.ownedBy}/${model.id}`].find((candidate) => entries?.has(candidate));
    if (key === undefined || entries === undefined) {
      if (options.provider === undefined) noteResellers(file, model, provider, result.notes);
      continue;
    }
    const name = `${provider}/${key}`;
    let imported: ImportedModel;
    try {
      imported = importedModel(entries.get(key)!, model, JSON.stringify(name), result.notes);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      result.warnings.push(`${error.message}: entry skipped`);
      continue;
    }
    const change = modelChange(model, imported, name, options.source(provider, key));
    if (change) result.changes.push(change);
  }
  return result;
}

/** The source of a model's values: the api.json address with the entry read as its fragment. */
export function modelsDevSource(provider: string, key: string, date: string): PriceSource {
  const url = `${MODELS_DEV_URL}#${provider}/${key}`;
  return { url: url.length <= MAX_SOURCE_URL ? url : MODELS_DEV_URL, date };
}

function noteResellers(file: ModelsDevFile, model: CatalogEntry, provider: string, notes: string[]): void {
  const others: string[] = [];
  for (const [id, entries] of file.providers) if (entries.has(model.id)) others.push(id);
  if (others.length === 0) return;
  const listed = others.length > 3 ? `${others.slice(0, 3).join(', ')} and ${others.length - 3} more` : others.join(', ');
  notes.push(`${model.id}: not listed by its vendor's provider "${provider}", only by ${listed}: not imported (--provider reads one of them)`);
}

/** The catalog fields one model entry sets (only those it states); a malformed field is a ConfigError naming it. */
function importedModel(entry: Record<string, unknown>, model: CatalogEntry, where: string, notes: string[]): ImportedModel {
  const imported: ImportedModel = {};
  if (entry.cost !== undefined) {
    const price = importedPrice(entry.cost, `${where}.cost`, notes);
    // A model billed per image or second is not priced by models.dev's per-token costs.
    if (model.price?.perUnit !== undefined) notes.push(`${model.id}: priced per unit in the catalog; ${where}'s per-token costs not imported`);
    else if (Object.keys(price).length > 0) imported.price = price;
  }
  const chat = model.operations.includes('chat');
  if (entry.limit !== undefined) {
    if (!isObject(entry.limit)) throw new ConfigError(`${where}.limit must be an object`);
    // limit.input, when stated, is the input limit; else the context window is.
    const inputLimit = tokenCount(entry.limit.input, `${where}.limit.input`, true) ?? tokenCount(entry.limit.context, `${where}.limit.context`, true);
    // An embedding model's limit.output is its vector's dimensions, not tokens.
    const outputLimit = chat ? tokenCount(entry.limit.output, `${where}.limit.output`, true) : undefined;
    // A context at or below the model's own long-context tier (Anthropic's 1M context is opt-in:
    // models.dev says 200k) would make that tier unreachable: the catalog's limit stays.
    const tier = imported.price?.above ?? model.price?.above;
    if (inputLimit !== undefined && tier !== undefined && inputLimit <= tier.threshold && (model.inputTokenLimit ?? 0) > tier.threshold)
      notes.push(
        `${model.id}: ${where}'s input limit ${inputLimit} is at or below its price tier above ${tier.threshold}: inputTokenLimit ${model.inputTokenLimit} kept`,
      );
    else if (inputLimit !== undefined) imported.inputTokenLimit = inputLimit;
    if (outputLimit !== undefined) imported.outputTokenLimit = outputLimit;
  }
  if (chat) {
    const capabilities = importedCapabilities(entry, model, where);
    if (capabilities) imported.capabilities = capabilities;
  }
  return imported;
}

function importedPrice(cost: unknown, where: string, notes: string[]): Partial<ModelPrice> {
  if (!isObject(cost)) throw new ConfigError(`${where} must be an object`);
  const price: Partial<ModelPrice> = {};
  const set = (field: 'input' | 'output' | 'cacheRead' | 'cacheWrite', value: number | undefined) => {
    if (value !== undefined) price[field] = value;
  };
  set('input', perMillion(cost.input, `${where}.input`));
  set('output', perMillion(cost.output, `${where}.output`));
  set('cacheRead', perMillion(cost.cache_read, `${where}.cache_read`));
  set('cacheWrite', perMillion(cost.cache_write, `${where}.cache_write`));
  const reasoning = perMillion(cost.reasoning, `${where}.reasoning`);
  if (reasoning !== undefined && reasoning !== price.output) notes.push(`${where}.reasoning ${reasoning}: reasoning tokens are billed at the output price`);
  const above = longContextTier(cost, where, notes);
  if (above) price.above = above;
  return price;
}

/** The tier above a context size: `tiers` when it has exactly one (its size exact), else `context_over_200k` at 200,000. */
function longContextTier(cost: Record<string, unknown>, where: string, notes: string[]): LongContextPrice | undefined {
  if (cost.tiers !== undefined) {
    if (!Array.isArray(cost.tiers) || cost.tiers.length > MAX_TIERS) throw new ConfigError(`${where}.tiers must be a list of at most ${MAX_TIERS} tiers`);
    const tiers = cost.tiers.map((tier, index) => tierPrice(tier, `${where}.tiers[${index}]`)).filter((tier) => tier !== undefined);
    if (tiers.length === 1) return tiers[0];
    if (tiers.length > 1) {
      notes.push(`${where}.tiers: ${tiers.length} context tiers; the catalog keeps one, the tier is not imported`);
      return undefined;
    }
  }
  if (cost.context_over_200k === undefined) return undefined;
  const over = cost.context_over_200k;
  if (!isObject(over)) throw new ConfigError(`${where}.context_over_200k must be an object`);
  return tierOf(ABOVE_200K, over, `${where}.context_over_200k`);
}

function tierPrice(tier: unknown, where: string): LongContextPrice | undefined {
  if (!isObject(tier) || !isObject(tier.tier)) throw new ConfigError(`${where} must be an object with a tier`);
  // Only context tiers (models.dev's default type) price by input size.
  if (tier.tier.type !== undefined && tier.tier.type !== 'context') return undefined;
  const size = tokenCount(tier.tier.size, `${where}.tier.size`, true);
  if (size === undefined) throw new ConfigError(`${where}.tier.size must be a whole number of tokens`);
  return tierOf(size, tier, where);
}

function tierOf(threshold: number, cost: Record<string, unknown>, where: string): LongContextPrice {
  const input = perMillion(cost.input, `${where}.input`);
  const output = perMillion(cost.output, `${where}.output`);
  if (input === undefined || output === undefined) throw new ConfigError(`${where} must have an input and an output cost`);
  const tier: LongContextPrice = { threshold, input, output };
  const cacheRead = perMillion(cost.cache_read, `${where}.cache_read`);
  const cacheWrite = perMillion(cost.cache_write, `${where}.cache_write`);
  if (cacheRead !== undefined) tier.cacheRead = cacheRead;
  if (cacheWrite !== undefined) tier.cacheWrite = cacheWrite;
  return tier;
}

/**
 * tools from `tool_call`, reasoning from `reasoning`, vision from an `image` input modality: as
 * stated. pdf from a `pdf` input modality and json_schema from `structured_output` only when
 * stated: models.dev lists pdf for some models that take PDFs and not for others (gpt-5: text,
 * image) and often leaves structured_output out, so their absence keeps the catalog's own. Only
 * from an entry that states tool_call, reasoning and modalities.
 */
function importedCapabilities(entry: Record<string, unknown>, model: CatalogEntry, where: string): ModelCapability[] | undefined {
  if (entry.tool_call === undefined || entry.reasoning === undefined || entry.modalities === undefined) return undefined;
  const tools = flagValue(entry.tool_call, `${where}.tool_call`);
  const reasoning = flagValue(entry.reasoning, `${where}.reasoning`);
  if (!isObject(entry.modalities) || !isStringList(entry.modalities.input)) throw new ConfigError(`${where}.modalities.input must be a list of modalities`);
  const inputs = entry.modalities.input;
  const had = (capability: ModelCapability) => model.capabilities?.includes(capability) ?? false;
  const jsonSchema = entry.structured_output === undefined ? had('json_schema') : flagValue(entry.structured_output, `${where}.structured_output`);
  const capabilities: ModelCapability[] = [];
  if (tools) capabilities.push('tools');
  if (inputs.includes('image')) capabilities.push('vision');
  if (inputs.includes('pdf') || had('pdf')) capabilities.push('pdf');
  if (jsonSchema) capabilities.push('json_schema');
  if (reasoning) capabilities.push('reasoning');
  return capabilities;
}

/** USD per million tokens as models.dev states them, to the catalog's 6 decimals. */
function perMillion(value: unknown, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1_000_000)
    throw new ConfigError(`${where} must be a price in USD per million tokens (a number from 0)`);
  return Number(value.toFixed(6));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
