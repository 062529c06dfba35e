/** `server.allowedHosts`: host names a client's Host header may name for the links it is given. */
import { ConfigError } from './config-error.js';

const HOST_NAME = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|[0-9a-f:.]*:[0-9a-f:.]*)$/;

/** A list, or a comma-separated string (`GENGATE_ALLOWED_HOSTS`), of names without port, lower-cased. */
export function parseAllowedHosts(value: unknown, where = 'server.allowedHosts'): string[] {
  if (value === undefined || value === null || value === '') return [];
  const entries = typeof value === 'string' ? value.split(',') : value;
  if (!Array.isArray(entries) || entries.some((entry) => typeof entry !== 'string')) throw new ConfigError(`${where} must be a list of host names`);
  const names = (entries as string[])
    .map((entry) =>
      entry
        .trim()
        .toLowerCase()
        .replace(/^\[(.*)\]$/, '$1'),
    )
    .filter(Boolean);
  const bad = names.find((name) => !HOST_NAME.test(name));
  if (bad !== undefined)
    throw new ConfigError(`${where}: ${JSON.stringify(bad)} is not a host name (give names without scheme or port, e.g. gengate.example.com)`);
  return names;
}
