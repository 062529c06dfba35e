import type { ChannelOptionSpec, ProviderDescriptor } from '../providers/types.js';
import { baseUrlError } from './check-base-url.js';
import { ConfigError } from './config-error.js';
import { channelDefaults, PROBE_INTERVAL_BOUNDS } from './defaults.js';
import type { ChannelDefinition, ProbeSettings } from './types.js';

export { ConfigError };

function stringList(value: unknown, where: string): string[] {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new ConfigError(`${where} must be a list of strings`);
  return value as string[];
}

function stringMap(value: unknown, where: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value) || Object.values(value).some((v) => typeof v !== 'string')) {
    throw new ConfigError(`${where} must map strings to strings`);
  }
  return value as Record<string, string>;
}

function number(value: unknown, where: string, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) throw new ConfigError(`${where} must be a number ≥ ${min}`);
  return value;
}

/** A declared option's value, checked by its spec; an option not declared passes as it is. */
function isWrongOption(value: unknown, spec: ChannelOptionSpec): boolean {
  if (spec.type === 'boolean') return typeof value !== 'boolean';
  if (spec.type === 'integer') return typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0;
  return typeof value !== 'string' || (spec.pattern !== undefined && !spec.pattern.test(value));
}

/**
 * The channel's `options:` mapping; the options its provider declares must have the declared shape
 * (`declared` absent for stored channels, held only to being a mapping like their base URL, so a
 * rule added later never stops a start: the provider refuses a wrong value when it calls).
 */
function channelOptions(value: unknown, where: string, declared: ProviderDescriptor['channelOptions'] = {}): Record<string, unknown> {
  const options = value ?? {};
  if (typeof options !== 'object' || Array.isArray(options)) throw new ConfigError(`${where} must be a mapping`);
  for (const [name, spec] of Object.entries(declared)) {
    const given = (options as Record<string, unknown>)[name];
    if (given !== undefined && isWrongOption(given, spec)) throw new ConfigError(`${where}.${name} must be ${spec.expected}`);
  }
  return options as Record<string, unknown>;
}

const PROBE_FIELDS = new Set(['enabled', 'intervalSeconds', 'autoEnable']);

/** A channel's `probe:` block; given at all, it probes unless `enabled: false`. */
function probeSettings(value: unknown, where: string): ProbeSettings | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw new ConfigError(`${where} must be a mapping`);
  const entry = value as Record<string, unknown>;
  const unknown = Object.keys(entry).find((field) => !PROBE_FIELDS.has(field));
  if (unknown !== undefined) throw new ConfigError(`${where}.${unknown.slice(0, 64)} is not a probe setting (enabled, intervalSeconds, autoEnable)`);
  for (const field of ['enabled', 'autoEnable'] as const) {
    if (entry[field] !== undefined && typeof entry[field] !== 'boolean') throw new ConfigError(`${where}.${field} must be true or false`);
  }
  const { min, max } = PROBE_INTERVAL_BOUNDS;
  const interval = entry.intervalSeconds ?? PROBE_INTERVAL_BOUNDS.default;
  if (typeof interval !== 'number' || !Number.isInteger(interval) || interval < min || interval > max) {
    throw new ConfigError(`${where}.intervalSeconds must be a whole number of seconds from ${min} to ${max}`);
  }
  return { enabled: entry.enabled !== false, intervalSeconds: interval, autoEnable: entry.autoEnable === true };
}

/**
 * Checks one channel definition (YAML, admin API, stored) against the providers the composition
 * root hands in (`providers/registry.ts`'s list) and fills in its defaults. `stored: true` is for channels already in the database: their base URL
 * is held only to what earlier versions required, so a channel stored before a rule was added
 * never stops a start (one whose host is no longer allowed is refused when it connects instead).
 * `allowPrivateBaseUrls` is `router.allowPrivateBaseUrls`.
 */
export function validateChannel(
  raw: unknown,
  where: string,
  descriptors: readonly ProviderDescriptor[],
  settings: { stored?: boolean; allowPrivateBaseUrls?: boolean } = {},
): ChannelDefinition {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new ConfigError(`${where} must be a mapping`);
  const entry = raw as Record<string, unknown>;
  const defaults = channelDefaults();
  const descriptor = descriptors.find((candidate) => candidate.name === entry.provider);
  if (!descriptor) {
    throw new ConfigError(`${where}.provider must be one of ${descriptors.map((d) => d.name).join(', ')}, got ${JSON.stringify(entry.provider)}`);
  }
  const provider = descriptor.name;
  if (typeof entry.name !== 'string' || entry.name === '') throw new ConfigError(`${where}.name must be a non-empty string`);
  if (entry.baseUrl !== undefined && typeof entry.baseUrl !== 'string') throw new ConfigError(`${where}.baseUrl must be a string`);
  const baseUrl = (entry.baseUrl as string | undefined) || descriptor.defaultBaseUrl || '';
  if (!descriptor.simulated) {
    const error = baseUrlError(baseUrl, `${where}.baseUrl`, { onlyMalformed: settings.stored, allowPrivate: settings.allowPrivateBaseUrls });
    if (error) throw new ConfigError(error);
  }
  const rewrite = entry.modelRewrite ?? [];
  if (!Array.isArray(rewrite) || rewrite.some((r) => !r || typeof r.from !== 'string' || typeof r.to !== 'string')) {
    throw new ConfigError(`${where}.modelRewrite must be a list of {from, to}`);
  }
  const options = channelOptions(entry.options, `${where}.options`, settings.stored ? undefined : descriptor.channelOptions);
  const enabled = entry.enabled === undefined ? true : entry.enabled === true;
  const probe = probeSettings(entry.probe, `${where}.probe`);
  // Only the gateway writes it, on stored channels, and it means something only while the channel is off.
  const autoDisabledAt = settings.stored && !enabled && typeof entry.autoDisabledAt === 'number' ? entry.autoDisabledAt : undefined;
  return {
    name: entry.name,
    provider,
    baseUrl: baseUrl.replace(/\/+$/, ''),
    apiKey: typeof entry.apiKey === 'string' ? entry.apiKey : '',
    headers: stringMap(entry.headers, `${where}.headers`),
    models: stringList(entry.models ?? [], `${where}.models`),
    modelMap: stringMap(entry.modelMap, `${where}.modelMap`),
    modelRewrite: rewrite as Array<{ from: string; to: string }>,
    priority: number(entry.priority, `${where}.priority`, defaults.priority, -1e9),
    weight: number(entry.weight, `${where}.weight`, defaults.weight),
    enabled,
    timeoutMs: number(entry.timeoutMs, `${where}.timeoutMs`, defaults.timeoutMs, 1),
    options,
    ...(probe && { probe }),
    ...(autoDisabledAt !== undefined && { autoDisabledAt }),
  };
}
