/**
 * The `metrics:` section: whether `/metrics` is served, where (a listen address of its own, or
 * the main port behind a bearer token), and whether answers carry the timing headers. Never open
 * on a public interface by default: enabled with neither address nor token, it listens on
 * loopback only.
 */
import { ConfigError } from './config-error.js';

export interface MetricsSettings {
  /** `/metrics` in Prometheus text format, and the lifecycle hooks that count for it. */
  enabled: boolean;
  /** `host:port` of a listener that serves only `/metrics` (no token); absent: none. */
  listen?: { host: string; port: number };
  /** Bearer token that opens `/metrics` on the main port; absent: not served there. */
  token?: string;
  /** `Server-Timing` and `x-gengate-overhead-ms` on every answer (also in the access log). */
  timingHeaders: boolean;
}

export const DEFAULT_METRICS_LISTEN = { host: '127.0.0.1', port: 9464 };
const MIN_TOKEN_LENGTH = 16;

type Env = Record<string, string | undefined>;

export function parseMetricsSettings(file: Record<string, unknown>, env: Env): MetricsSettings {
  for (const name of Object.keys(file)) {
    if (!['enabled', 'listen', 'token', 'timingHeaders'].includes(name))
      throw new ConfigError(`metrics.${name} is not a setting (enabled, listen, token, timingHeaders)`);
  }
  const enabled = booleanOf(env.GENGATE_METRICS !== undefined ? env.GENGATE_METRICS : file.enabled, 'metrics.enabled', false);
  const timingHeaders = booleanOf(env.GENGATE_TIMING_HEADERS !== undefined ? env.GENGATE_TIMING_HEADERS : file.timingHeaders, 'metrics.timingHeaders', true);
  const listenText = env.GENGATE_METRICS_LISTEN ?? file.listen;
  const token = env.GENGATE_METRICS_TOKEN ?? file.token;
  const settings: MetricsSettings = { enabled, timingHeaders };
  if (listenText !== undefined && listenText !== null && listenText !== '') settings.listen = parseListen(listenText);
  if (token !== undefined && token !== null && token !== '') {
    if (typeof token !== 'string' || token.length < MIN_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token)) {
      throw new ConfigError(`metrics.token must be at least ${MIN_TOKEN_LENGTH} printable characters without spaces`);
    }
    settings.token = token;
  }
  if (enabled && !settings.listen && !settings.token) settings.listen = { ...DEFAULT_METRICS_LISTEN };
  return settings;
}

function booleanOf(value: unknown, where: string, fallback: boolean): boolean {
  if (value === undefined || value === null) return fallback;
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new ConfigError(`${where} must be true or false, got ${JSON.stringify(value)}`);
}

/** `port`, `:port`, `host:port` or `[ipv6]:port`; a bare port listens on loopback. */
export function parseListen(value: unknown): { host: string; port: number } {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') throw new ConfigError(`metrics.listen must be "host:port" or a port, got ${JSON.stringify(value)}`);
  const match = /^(?:(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]*):)?(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port < 1 || port > 65_535) throw new ConfigError(`metrics.listen must be "host:port" or a port (1–65535), got ${JSON.stringify(value)}`);
  const host = match[1] ? match[1].replace(/^\[|\]$/g, '') : DEFAULT_METRICS_LISTEN.host;
  return { host, port };
}
