import { describe, expect, it } from 'vitest';
import { createProvider } from './create-provider.js';
import { findProviderDescriptor, PROVIDER_DESCRIPTORS, ProviderRegistry } from './registry.js';
import type { ProviderDescriptor } from './types.js';

describe('provider descriptors', () => {
  it('lists each provider kind once', () => {
    const names = PROVIDER_DESCRIPTORS.map((d) => d.name);
    expect(names.sort()).toEqual([
      'anthropic',
      'ark',
      'azure-openai',
      'bedrock',
      'bedrock-anthropic',
      'bfl',
      'cerebras',
      'deepseek',
      'fireworks',
      'gemini',
      'groq',
      'ideogram',
      'llamacpp',
      'lmstudio',
      'luma',
      'midjourney-proxy',
      'minimax',
      'mistral',
      'ollama',
      'openai',
      'openai-compatible',
      'openrouter',
      'perplexity',
      'replicate',
      'runway',
      'sandbox',
      'together',
      'vertex-ai',
      'vertex-anthropic',
      'vllm',
      'xai',
    ]);
  });

  it('each descriptor makes a provider of its name with the operations and dialect it declares', async () => {
    for (const descriptor of PROVIDER_DESCRIPTORS) {
      const provider = await createProvider(descriptor);
      expect(provider.name).toBe(descriptor.name);
      expect([...provider.operations].sort()).toEqual([...descriptor.operations].sort());
      expect(provider.dialect).toBe(descriptor.dialect);
      expect(provider.simulated === true).toBe(descriptor.simulated === true);
      if (provider.operations.has('chat')) expect(provider.chat).toBeDefined();
      if (provider.operations.has('embed')) expect(provider.embed).toBeDefined();
      if (provider.operations.has('video.generate') || provider.operations.has('image.imagine')) expect(provider.tasks).toBeDefined();
    }
  });

  it("every upstream provider has an http(s) default base URL except self-hosted ones and Azure's per-resource one, which need the channel's; local servers default to their loopback port", () => {
    const local = new Set(['vllm', 'ollama', 'llamacpp', 'lmstudio']);
    for (const descriptor of PROVIDER_DESCRIPTORS) {
      if (local.has(descriptor.name)) {
        expect(descriptor.defaultBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
        expect(descriptor.envPreset).toBeUndefined();
      } else if (descriptor.simulated || ['openai-compatible', 'midjourney-proxy', 'azure-openai'].includes(descriptor.name)) {
        expect(descriptor.defaultBaseUrl).toBeUndefined();
      } else {
        expect(descriptor.defaultBaseUrl).toMatch(/^https:\/\//);
      }
    }
  });

  it('finds descriptors by name only', () => {
    expect(findProviderDescriptor('gemini')?.name).toBe('gemini');
    expect(findProviderDescriptor('nope')).toBeUndefined();
    expect(findProviderDescriptor(42)).toBeUndefined();
  });

  it('the registry creates one provider per kind from the descriptors when loaded, and refuses an unknown kind', async () => {
    let made = 0;
    const fake: ProviderDescriptor = {
      name: 'fake',
      operations: ['embed'],
      factory: () => {
        made++;
        return {};
      },
    };
    const registry = new ProviderRegistry([], [fake]);
    expect(() => registry.get('fake')).toThrow(/not loaded/);
    expect(made).toBe(0);
    await Promise.all([registry.load(['fake', 'fake']), registry.load(['fake', 'no-such-kind'])]);
    await registry.load(['fake']);
    expect(registry.get('fake')).toBe(registry.get('fake'));
    expect(made).toBe(1);
    expect(registry.get('fake')).toMatchObject({ name: 'fake', operations: new Set(['embed']) });
    expect(() => registry.get('openai')).toThrow(/unknown provider "openai"/);
  });

  it('serves a provider built at the composition root as it was handed in', async () => {
    const sandbox = await createProvider(findProviderDescriptor('sandbox')!);
    expect(new ProviderRegistry([sandbox]).get('sandbox')).toBe(sandbox);
  });
});
