/**
 * The providers the gateway knows: one descriptor per provider kind. Adding a provider is one
 * folder under `src/providers/` plus one line in `PROVIDER_DESCRIPTORS` (an OpenAI-compatible
 * named preset is one entry of `openai/openai-flavours.ts`); config validation, environment
 * presets and default base URLs follow from this list, and each provider's name, operations and
 * dialect from its descriptor (`create-provider.ts`).
 */
import { anthropicDescriptor } from './anthropic/index.js';
import { arkDescriptor } from './ark/index.js';
import { bflDescriptor } from './bfl/index.js';
import { geminiDescriptor } from './gemini/index.js';
import { ideogramDescriptor } from './ideogram/index.js';
import { lumaDescriptor } from './luma/index.js';
import { midjourneyProxyDescriptor } from './midjourney-proxy/index.js';
import { minimaxDescriptor } from './minimax/index.js';
import { namedPresetDescriptors, openaiCompatibleDescriptor, openaiDescriptor } from './openai/index.js';
import { replicateDescriptor } from './replicate/index.js';
import { runwayDescriptor } from './runway/index.js';
import { sandboxDescriptor } from '../sandbox/index.js';
import { createProvider } from './create-provider.js';
import type { Provider, ProviderDescriptor, ProviderName } from './types.js';

export const PROVIDER_DESCRIPTORS: readonly ProviderDescriptor[] = [
  openaiDescriptor,
  openaiCompatibleDescriptor,
  anthropicDescriptor,
  geminiDescriptor,
  bflDescriptor,
  replicateDescriptor,
  ideogramDescriptor,
  midjourneyProxyDescriptor,
  minimaxDescriptor,
  arkDescriptor,
  lumaDescriptor,
  runwayDescriptor,
  ...namedPresetDescriptors,
  sandboxDescriptor,
];

export function findProviderDescriptor(name: unknown, descriptors: readonly ProviderDescriptor[] = PROVIDER_DESCRIPTORS): ProviderDescriptor | undefined {
  return typeof name === 'string' ? descriptors.find((descriptor) => descriptor.name === name) : undefined;
}

/**
 * One instance per provider kind; channels share them (providers hold no per-channel state). Those
 * built with gateway settings (the sandbox, by the composition root) are handed in; the others are
 * created from their descriptors on first use.
 */
export class ProviderRegistry {
  private readonly providers: Map<ProviderName, Provider>;

  constructor(
    built: readonly Provider[],
    private readonly descriptors: readonly ProviderDescriptor[] = PROVIDER_DESCRIPTORS,
  ) {
    this.providers = new Map(built.map((provider) => [provider.name, provider]));
  }

  get(name: ProviderName): Provider {
    let provider = this.providers.get(name);
    if (!provider) {
      const descriptor = findProviderDescriptor(name, this.descriptors);
      if (!descriptor) throw new Error(`unknown provider "${name}"`);
      provider = createProvider(descriptor);
      this.providers.set(name, provider);
    }
    return provider;
  }
}
