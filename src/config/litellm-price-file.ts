/**
 * Reads a published model-price file in the shape of LiteLLM's community-kept
 * `model_prices_and_context_window.json` (one object per model id: costs per token, per image,
 * per second, token limits, `supports_*` flags) into catalog changes: USD per token becomes USD
 * per million tokens, `*_above_200k_tokens` costs the long-context tier, the flags the
 * capabilities routing checks. Only the entries of models the catalog has are read; a malformed
 * one is an error naming the model and the field.
 */
import { ConfigError } from './config-error.js';
import type { LongContextPrice, ModelCapability, ModelOverride, ModelPrice } from './types.js';
import { flagValue, tokenCount } from './price-file-values.js';

/** LiteLLM's own file is about 1.6 MB and 2,500 entries; far larger is not a price file. */
export const MAX_PRICE_FILE_BYTES = 32 * 1024 * 1024;
export const MAX_PRICE_FILE_ENTRIES = 50_000;

/** The fields of a catalog model a price file may change. */
export type ImportedModel = Omit<ModelOverride, 'id' | 'operations' | 'ownedBy' | 'displayName' | 'priceSource'>;

const CAPABILITY_FLAGS: ReadonlyArray<[string, ModelCapability]> = [
  ['supports_function_calling', 'tools'],
  ['supports_vision', 'vision'],
  ['supports_pdf_input', 'pdf'],
  ['supports_response_schema', 'json_schema'],
  ['supports_reasoning', 'reasoning'],
];
/** LiteLLM's long-context costs: the whole request at these above 200k input tokens. */
const ABOVE_200K = 200_000;

export interface PriceFile {
  /** Each entry by its id as the file names it (`sample_spec`, LiteLLM's documentation entry, left out). */
  entries: Map<string, Record<string, unknown>>;
}

/** Parses the text of a price file; a ConfigError says what is wrong with it. */
export function parsePriceFile(text: string, where: string): PriceFile {
  return priceFileOf(parsePriceDocument(text, where, "one entry per model id (LiteLLM's model_prices_and_context_window.json shape)"), where);
}

/** The JSON object a price file holds, refused when too large, not JSON or not an object (`expected` says what it should be). */
export function parsePriceDocument(text: string, where: string, expected: string): Record<string, unknown> {
  if (Buffer.byteLength(text) > MAX_PRICE_FILE_BYTES) throw new ConfigError(`${where}: larger than ${MAX_PRICE_FILE_BYTES} bytes: not a price file`);
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${where}: not JSON (${(error as Error).message})`);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw new ConfigError(`${where}: expected an object with ${expected}`);
  return document as Record<string, unknown>;
}

/** A parsed LiteLLM price file's entries; an entry that is not an object is an error naming it. */
export function priceFileOf(document: Record<string, unknown>, where: string): PriceFile {
  const keys = Object.keys(document);
  if (keys.length > MAX_PRICE_FILE_ENTRIES) throw new ConfigError(`${where}: more than ${MAX_PRICE_FILE_ENTRIES} entries: not a price file`);
  const entries = new Map<string, Record<string, unknown>>();
  for (const key of keys) {
    if (key === 'sample_spec') continue;
    const entry = document[key];
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new ConfigError(`${where}: entry ${JSON.stringify(key)} must be an object`);
    entries.set(key, entry as Record<string, unknown>);
  }
  return { entries };
}

/** The file's entry for a catalog model: its own id, else `provider/id` as LiteLLM names some (`gemini/gemini-2.5-pro`). */
export function entryFor(file: PriceFile, id: string): { key: string; entry: Record<string, unknown> } | undefined {
  const own = file.entries.get(id);
  if (own) return { key: id, entry: own };
  for (const prefix of ['gemini', 'anthropic', 'openai', 'vertex_ai']) {
    const entry = file.entries.get(`${prefix}/${id}`);
    if (entry) return { key: `${prefix}/${id}`, entry };
  }
  return undefined;
}

/** The catalog fields one entry sets (only those it has). */
export function importedModel(entry: Record<string, unknown>, where: string): ImportedModel {
  const cost = (field: string): number | undefined => perMillion(entry[field], `${where}.${field}`);
  const price: Partial<ModelPrice> = {};
  const set = (field: keyof Omit<ModelPrice, 'above'>, value: number | undefined) => {
    if (value !== undefined) price[field] = value;
  };
  set('input', cost('input_cost_per_token'));
  set('output', cost('output_cost_per_token'));
  set('cacheRead', cost('cache_read_input_token_cost'));
  set('cacheWrite', cost('cache_creation_input_token_cost'));
  const perUnit = usd(entry.output_cost_per_image, `${where}.output_cost_per_image`) ?? usd(entry.output_cost_per_second, `${where}.output_cost_per_second`);
  set('perUnit', perUnit);
  const aboveInput = cost('input_cost_per_token_above_200k_tokens');
  const aboveOutput = cost('output_cost_per_token_above_200k_tokens');
  if (aboveInput !== undefined && aboveOutput !== undefined) {
    const above: LongContextPrice = { threshold: ABOVE_200K, input: aboveInput, output: aboveOutput };
    const cacheRead = cost('cache_read_input_token_cost_above_200k_tokens');
    const cacheWrite = cost('cache_creation_input_token_cost_above_200k_tokens');
    if (cacheRead !== undefined) above.cacheRead = cacheRead;
    if (cacheWrite !== undefined) above.cacheWrite = cacheWrite;
    price.above = above;
  }
  const imported: ImportedModel = {};
  if (Object.keys(price).length > 0) imported.price = price;
  const inputLimit = tokenCount(entry.max_input_tokens, `${where}.max_input_tokens`);
  const outputLimit = tokenCount(entry.max_output_tokens, `${where}.max_output_tokens`);
  if (inputLimit !== undefined) imported.inputTokenLimit = inputLimit;
  if (outputLimit !== undefined) imported.outputTokenLimit = outputLimit;
  // Capabilities only from a chat entry that states at least one flag: silence is not "none".
  if (entry.mode === 'chat' && CAPABILITY_FLAGS.some(([flag]) => flag in entry)) {
    imported.capabilities = CAPABILITY_FLAGS.filter(([flag]) => flag in entry && flagValue(entry[flag], `${where}.${flag}`)).map(
      ([, capability]) => capability,
    );
  }
  return imported;
}

function usd(value: unknown, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1_000_000)
    throw new ConfigError(`${where} must be a price in USD (a number from 0)`);
  // At most 9 decimals (nUSD), as the catalog keeps them.
  return Number(value.toFixed(9));
}

/** USD per token → USD per million tokens, to the catalog's 6 decimals (1.25e-6 × 10⁶ is 1.2499999999999998 in floats). */
function perMillion(value: unknown, where: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1)
    throw new ConfigError(`${where} must be a cost per token in USD (a number from 0 to 1)`);
  return Number((value * 1_000_000).toFixed(6));
}
