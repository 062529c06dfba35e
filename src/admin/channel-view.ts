/**
 * A channel as the admin API shows it: its definition without credentials — the key only as a
 * hint (`sk-…abcd`), headers only by name, options its provider declares secret only as hints
 * too — where it comes from, and its circuit state.
 */
import type { ChannelDefinition, ProbeSettings } from '../config/types.js';
import { findProviderDescriptor } from '../providers/registry.js';
import type { CircuitStateName } from '../routing/circuit-breaker.js';

type ChannelSource = 'config' | 'stored';

export interface ChannelView {
  name: string;
  provider: string;
  baseUrl: string;
  models: string[];
  modelMap: Record<string, string>;
  modelRewrite: Array<{ from: string; to: string }>;
  priority: number;
  weight: number;
  enabled: boolean;
  timeoutMs: number;
  source: ChannelSource;
  readOnly: boolean;
  credentialHint: string | null;
  headerNames: string[];
  circuit: CircuitStateName;
  probe: ProbeSettings | null;
  /** Provider options, without the secret ones. */
  options: Record<string, unknown>;
  /** Each secret option set, as a hint like the key's. */
  secretOptionHints: Record<string, string | null>;
  /** Disabled by the gateway after refused credentials; a passing probe re-enables it when `probe.autoEnable` is set. */
  autoDisabled: boolean;
}

/**
 * Enough of a key to recognise it, too little to use it: the first three and last four
 * characters of a long key, fewer of a short one, nothing of a very short one.
 */
export function credentialHint(apiKey: string): string | null {
  if (apiKey === '') return null;
  if (apiKey.length >= 20) return `${apiKey.slice(0, 3)}…${apiKey.slice(-4)}`;
  if (apiKey.length >= 10) return `…${apiKey.slice(-2)}`;
  return '…';
}

/** The names of the options the channel's provider declares secret (`ProviderDescriptor.channelOptions`). */
export function secretOptionNames(provider: string): string[] {
  const declared = findProviderDescriptor(provider)?.channelOptions ?? {};
  return Object.keys(declared).filter((name) => declared[name].secret === true);
}

/** The channel's options split into those shown and hints of the secret ones. */
function shownOptions(definition: ChannelDefinition): Pick<ChannelView, 'options' | 'secretOptionHints'> {
  const secret = new Set(secretOptionNames(definition.provider));
  const options: Record<string, unknown> = {};
  const secretOptionHints: Record<string, string | null> = {};
  for (const [name, value] of Object.entries(definition.options)) {
    if (secret.has(name)) secretOptionHints[name] = typeof value === 'string' ? credentialHint(value) : null;
    else options[name] = value;
  }
  return { options, secretOptionHints };
}

export function channelView(definition: ChannelDefinition, source: ChannelSource, circuit: CircuitStateName): ChannelView {
  return {
    name: definition.name,
    provider: definition.provider,
    baseUrl: definition.baseUrl,
    models: definition.models,
    modelMap: definition.modelMap,
    modelRewrite: definition.modelRewrite,
    priority: definition.priority,
    weight: definition.weight,
    enabled: definition.enabled,
    timeoutMs: definition.timeoutMs,
    source,
    readOnly: source === 'config',
    credentialHint: credentialHint(definition.apiKey),
    headerNames: Object.keys(definition.headers),
    circuit,
    probe: definition.probe ?? null,
    ...shownOptions(definition),
    autoDisabled: !definition.enabled && definition.autoDisabledAt !== undefined,
  };
}

/** Removes a channel's credentials from text about it (an upstream's error, an answer's sample). */
export function withoutCredentials(text: string, definition: Pick<ChannelDefinition, 'provider' | 'apiKey' | 'headers' | 'options'>): string {
  let clean = text;
  const secretOptions = secretOptionNames(definition.provider).map((name) => definition.options[name]);
  for (const secret of [definition.apiKey, ...Object.values(definition.headers), ...secretOptions]) {
    if (typeof secret === 'string' && secret.length >= 4) clean = clean.split(secret).join('[redacted]');
  }
  return clean;
}

export const CHANNEL_VIEW_SCHEMA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    provider: { type: 'string' },
    baseUrl: { type: 'string' },
    models: { type: 'array', items: { type: 'string' } },
    modelMap: { type: 'object', additionalProperties: { type: 'string' } },
    modelRewrite: {
      type: 'array',
      items: { type: 'object', properties: { from: { type: 'string' }, to: { type: 'string' } }, required: ['from', 'to'] },
    },
    priority: { type: 'number' },
    weight: { type: 'number' },
    enabled: { type: 'boolean' },
    timeoutMs: { type: 'number' },
    source: { type: 'string', enum: ['config', 'stored'] },
    readOnly: { type: 'boolean' },
    credentialHint: { type: ['string', 'null'], description: 'A hint of the upstream key (e.g. `sk-…abcd`); never the key' },
    headerNames: { type: 'array', items: { type: 'string' }, description: 'Names of the extra upstream headers; their values are never shown' },
    circuit: { type: 'string', enum: ['closed', 'open', 'half-open'] },
    probe: {
      type: ['object', 'null'],
      properties: { enabled: { type: 'boolean' }, intervalSeconds: { type: 'integer' }, autoEnable: { type: 'boolean' } },
      required: ['enabled', 'intervalSeconds', 'autoEnable'],
      description: 'Periodic health probes of the upstream; null when the channel has none',
    },
    options: { type: 'object', additionalProperties: true, description: "Provider options (see the provider's section), without the secret ones" },
    secretOptionHints: {
      type: 'object',
      additionalProperties: { type: ['string', 'null'] },
      description: 'Secret options set (e.g. webhookSecret), each as a hint like credentialHint; never the value',
    },
    autoDisabled: { type: 'boolean', description: 'Disabled by the gateway after its credentials were refused repeatedly' },
  },
  required: [
    'name',
    'provider',
    'baseUrl',
    'models',
    'modelMap',
    'modelRewrite',
    'priority',
    'weight',
    'enabled',
    'timeoutMs',
    'source',
    'readOnly',
    'credentialHint',
    'headerNames',
    'circuit',
    'probe',
    'options',
    'secretOptionHints',
    'autoDisabled',
  ],
} as const;
