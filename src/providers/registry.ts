/**
 * The providers the gateway knows: one descriptor per provider kind. Adding a provider is one
 * folder under `src/providers/` plus one line in `PROVIDER_DESCRIPTORS` (an OpenAI-compatible
 * named preset is one entry of `openai/openai-flavours.ts`); config validation, environment
 * presets and default base URLs follow from this list, and each provider's name, operations and
 * dialect from its descriptor (`create-provider.ts`). The list is data: an adapter's modules are
 * loaded (`import()`) only when a channel of that provider is built (`ProviderRegistry.load`).
 */
import { anthropicDescriptor } from './anthropic/index.js';
import { arkDescriptor } from './ark/index.js';
import { azureOpenAIDescriptor } from './azure-openai/index.js';
import { bedrockAnthropicDescriptor, bedrockDescriptor } from './bedrock/index.js';
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
import { vertexAIDescriptor, vertexAnthropicDescriptor } from './vertex-ai/index.js';
import { createProvider } from './create-provider.js';
import type { Provider, ProviderDescriptor, ProviderName } from './types.js';

export const PROVIDER_DESCRIPTORS: readonly ProviderDescriptor[] = [
  openaiDescriptor,
  openaiCompatibleDescriptor,
  azureOpenAIDescriptor,
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
  vertexAIDescriptor,
  vertexAnthropicDescriptor,
  bedrockDescriptor,
  bedrockAnthropicDescriptor,
  ...namedPresetDescriptors,
  sandboxDescriptor,
];

export function findProviderDescriptor(name: unknown, descriptors: readonly ProviderDescriptor[] = PROVIDER_DESCRIPTORS): ProviderDescriptor | undefined {
  return typeof name === 'string' ? descriptors.find((descriptor) => descriptor.name === name) : undefined;
}

/**
 * One instance per provider kind; channels share them (providers hold no per-channel state). Those
 * built with gateway settings (the sandbox, by the composition root) are handed in; the others are
 * created from their descriptors by `load`, which whoever builds channels awaits first (the
 * gateway's start, a reload of the stored channels, a channel test), so that `get` stays synchronous
 * on the path that binds channels.
 */
export class ProviderRegistry {
  private readonly providers: Map<ProviderName, Provider>;
  private readonly loading = new Map<string, Promise<void>>();

  constructor(
    built: readonly Provider[],
    private readonly descriptors: readonly ProviderDescriptor[] = PROVIDER_DESCRIPTORS,
  ) {
    this.providers = new Map(built.map((provider) => [provider.name, provider]));
  }

  /** Creates the named providers not made yet (loading their adapters); names no descriptor has are left to `get`. */
  async load(names: Iterable<string>): Promise<void> {
    const wanted = new Set<string>(names);
    await Promise.all(
      [...wanted].map(async (name) => {
        if (this.providers.has(name) || this.loading.has(name)) return this.loading.get(name);
        const descriptor = findProviderDescriptor(name, this.descriptors);
        if (!descriptor) return;
        const made = createProvider(descriptor).then((provider) => {
          this.providers.set(name, provider);
        });
        this.loading.set(name, made);
        try {
          await made;
        } finally {
          this.loading.delete(name);
        }
      }),
    );
  }

  get(name: ProviderName): Provider {
    const provider = this.providers.get(name);
    if (provider) return provider;
    if (!findProviderDescriptor(name, this.descriptors)) throw new Error(`unknown provider "${name}"`);
    throw new Error(`provider "${name}" is not loaded: await ProviderRegistry.load first`);
  }
}
