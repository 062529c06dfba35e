/**
 * Channels made from environment variables alone: for each provider descriptor with an
 * environment preset, its key variable set adds a channel named `<provider>-env`.
 */
import type { ProviderDescriptor } from '../providers/types.js';
import { baseUrlError } from './check-base-url.js';
import { ConfigError } from './config-error.js';
import { channelDefaults } from './defaults.js';
import type { ChannelDefinition } from './types.js';

export type Env = Record<string, string | undefined>;

/** `from=to` pairs separated by commas, e.g. `textmodel-b-=gpt-,mymodel=gpt-4o`. */
function parseRewrite(value: string, variable: string): Array<{ from: string; to: string }> {
  return value
    .split(',')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0) throw new ConfigError(`${variable}: expected from=to pairs, got "${pair}"`);
      return { from: pair.slice(0, at).trim(), to: pair.slice(at + 1).trim() };
    });
}

export function channelsFromEnv(env: Env, descriptors: readonly ProviderDescriptor[], allowPrivateBaseUrls = false): ChannelDefinition[] {
  const channels: ChannelDefinition[] = [];
  for (const descriptor of descriptors) {
    const preset = descriptor.envPreset;
    const apiKey = preset ? env[preset.keyVar] : undefined;
    if (!preset || !apiKey) continue;
    const baseUrl = env[preset.baseVar] || descriptor.defaultBaseUrl;
    if (!baseUrl) throw new ConfigError(`${preset.baseVar} must be set: provider ${descriptor.name} has no default base URL`);
    const error = baseUrlError(baseUrl, preset.baseVar, { allowPrivate: allowPrivateBaseUrls });
    if (error) throw new ConfigError(error);
    const rewriteValue = env[preset.rewriteVar];
    const rewrite = rewriteValue ? parseRewrite(rewriteValue, preset.rewriteVar) : preset.rewrite;
    channels.push({
      ...channelDefaults(),
      name: `${descriptor.name}-env`,
      provider: descriptor.name,
      baseUrl: baseUrl.replace(/\/+$/, ''),
      apiKey,
      models: [...rewrite.map((r) => `${r.from}*`), ...Object.keys(preset.modelMap), ...preset.extraModels],
      modelMap: { ...preset.modelMap },
      modelRewrite: rewrite,
    });
  }
  return channels;
}
