/** Field readers the price-file formats (LiteLLM's, models.dev's) share. */
import { ConfigError } from './config-error.js';

export function flagValue(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') throw new ConfigError(`${where} must be true or false`);
  return value;
}

/** A token count; absent is none, and so is 0 where `zeroIsNone` (models.dev's "not stated" for some media models). */
export function tokenCount(value: unknown, where: string, zeroIsNone = false): number | undefined {
  if (value === undefined || value === null || (zeroIsNone && value === 0)) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0 || value > 100_000_000)
    throw new ConfigError(`${where} must be a whole number of tokens`);
  return value;
}
