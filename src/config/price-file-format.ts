/**
 * Which published format a price file is in: LiteLLM's flat object of model ids, or models.dev's
 * `api.json`, an object of providers each with a `models` object. Told by the entries: a LiteLLM
 * entry never has a `models` object, a models.dev provider always has.
 */
import { ConfigError } from './config-error.js';
import { MAX_PRICE_FILE_ENTRIES } from './litellm-price-file.js';

export const PRICE_FILE_FORMATS = ['litellm', 'models.dev'] as const;
export type PriceFileFormat = (typeof PRICE_FILE_FORMATS)[number];

export function detectPriceFileFormat(document: Record<string, unknown>, where: string): PriceFileFormat {
  const values = Object.values(document);
  if (values.length > MAX_PRICE_FILE_ENTRIES) throw new ConfigError(`${where}: more than ${MAX_PRICE_FILE_ENTRIES} entries: not a price file`);
  let providers = 0;
  for (const value of values) if (isObject(value) && isObject(value.models)) providers += 1;
  if (providers === 0) return 'litellm';
  // A few malformed providers do not make a models.dev file a LiteLLM one; a mix near half is neither.
  if (providers * 2 > values.length) return 'models.dev';
  throw new ConfigError(
    `${where}: cannot tell the format (${providers} of ${values.length} entries have a "models" object, as models.dev's providers do): give --format litellm or --format models.dev`,
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
