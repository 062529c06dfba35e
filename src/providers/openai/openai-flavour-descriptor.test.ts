import { describe, expect, it } from 'vitest';
import { createProvider } from '../create-provider.js';
import { NAMED_PRESETS } from './named-presets.js';
import { openAIFlavourDescriptor } from './openai-flavour-descriptor.js';
import { OPENAI_COMPATIBLE_FLAVOUR, OPENAI_FLAVOUR } from './openai-flavours.js';

describe('openAIFlavourDescriptor', () => {
  it('makes an OpenAI-dialect descriptor with the parts its operations need, and no others', async () => {
    const openai = await createProvider(openAIFlavourDescriptor(OPENAI_FLAVOUR));
    expect(openai).toMatchObject({ name: 'openai', dialect: 'openai' });
    expect(openai.images?.generate).toBeDefined();
    const compatible = await createProvider(openAIFlavourDescriptor(OPENAI_COMPATIBLE_FLAVOUR));
    expect(compatible.embed).toBeDefined();
    expect(compatible.images).toBeUndefined();
    const chatOnly = await createProvider(openAIFlavourDescriptor({ ...OPENAI_COMPATIBLE_FLAVOUR, name: 'chat-only', operations: ['chat'] }));
    expect([...chatOnly.operations]).toEqual(['chat']);
    expect(chatOnly.chat?.passthrough).toBeDefined();
    expect(chatOnly.embed).toBeUndefined();
  });

  it('relays the Responses API only for the flavour that serves it (OpenAI itself)', async () => {
    expect((await createProvider(openAIFlavourDescriptor(OPENAI_FLAVOUR))).alsoRelays).toEqual(['responses']);
    expect((await createProvider(openAIFlavourDescriptor(OPENAI_COMPATIBLE_FLAVOUR))).alsoRelays).toBeUndefined();
    for (const preset of NAMED_PRESETS) expect(openAIFlavourDescriptor(preset).alsoRelays).toBeUndefined();
  });

  it('gives each named preset its vendor base URL and its own environment variables', () => {
    for (const preset of NAMED_PRESETS) {
      const descriptor = openAIFlavourDescriptor(preset);
      expect(descriptor.defaultBaseUrl).toMatch(/^https:\/\//);
      const prefix = preset.name.toUpperCase().replace(/-/g, '_');
      expect(descriptor.envPreset).toMatchObject({ baseVar: `${prefix}_BASE_URL`, rewriteVar: `${prefix}_MODEL_REWRITE` });
      expect(descriptor.envPreset?.keyVar.startsWith(`${prefix}_`)).toBe(true);
      expect(preset.stopRules.upstream).not.toBe('');
    }
  });
});
