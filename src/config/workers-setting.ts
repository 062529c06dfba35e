/** `server.workers` / `GENGATE_WORKERS` / `--workers`: how many worker processes `gengate start` runs. */
import { ConfigError } from './config-error.js';

export type WorkersSetting = number | 'auto';

/** More workers than this is a typo, not a plan (each holds a full gateway in memory). */
export const MAX_WORKERS = 256;

/** Reads a `--workers` flag or `server.workers` value; a message naming `source` when it is neither a count nor `auto`. */
export function parseWorkers(value: unknown, source: string): WorkersSetting {
  if (value === 'auto') return 'auto';
  const number = typeof value === 'string' && /^\d{1,4}$/.test(value.trim()) ? Number(value.trim()) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 1 || number > MAX_WORKERS) {
    throw new ConfigError(`${source} must be a whole number from 1 to ${MAX_WORKERS}, or "auto"`);
  }
  return number;
}
