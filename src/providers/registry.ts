/** One instance per provider kind; channels share them (providers hold no per-channel state). */
import type { SandboxSettings } from '../config/types.js';
import { createAnthropicProvider } from './anthropic/index.js';
import { createBflProvider } from './bfl/index.js';
import { createGeminiProvider } from './gemini/index.js';
import { createIdeogramProvider } from './ideogram/index.js';
import { createOpenAIProvider } from './openai/index.js';
import { createReplicateProvider } from './replicate/index.js';
import { createSandboxProvider } from './sandbox/index.js';
import type { Provider, ProviderName } from './types.js';

export class ProviderRegistry {
  private readonly providers = new Map<ProviderName, Provider>();

  constructor(private readonly sandboxSettings: SandboxSettings) {}

  get(name: ProviderName): Provider {
    let provider = this.providers.get(name);
    if (!provider) {
      provider = this.create(name);
      this.providers.set(name, provider);
    }
    return provider;
  }

  private create(name: ProviderName): Provider {
    switch (name) {
      case 'openai':
      case 'openai-compatible':
        return createOpenAIProvider(name);
      case 'anthropic':
        return createAnthropicProvider();
      case 'gemini':
        return createGeminiProvider();
      case 'bfl':
        return createBflProvider();
      case 'replicate':
        return createReplicateProvider();
      case 'ideogram':
        return createIdeogramProvider();
      case 'sandbox':
        return createSandboxProvider(this.sandboxSettings);
    }
  }
}
