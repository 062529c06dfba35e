import { describe, expect, it } from 'vitest';
import { Catalog } from './catalog.js';

// Current models of the three first-party vendors (as of the models.dev snapshot of 2026-07-02 the
// catalog was checked against), written out on purpose.
const REQUIRED = {
  openai: [
    'gpt-5.5',
    'gpt-5.4',
    'gpt-5.4-mini',
    'gpt-5.2',
    'gpt-5',
    'gpt-5-mini',
    'gpt-5-nano',
    'gpt-5.1',
    'gpt-4.1',
    'gpt-4.1-mini',
    'gpt-4.1-nano',
    'gpt-4o',
    'gpt-4o-mini',
    'o3',
    'o4-mini',
    'text-embedding-3-small',
    'text-embedding-3-large',
    'gpt-image-1',
    'dall-e-3',
    'sora-2',
  ],
  anthropic: ['claude-fable-5', 'claude-opus-4-8', 'claude-sonnet-5', 'claude-sonnet-4-6', 'claude-opus-4-5', 'claude-sonnet-4-5', 'claude-haiku-4-5'],
  google: [
    'gemini-3.5-flash',
    'gemini-3.1-pro-preview',
    'gemini-3.1-flash-lite',
    'gemini-2.5-pro',
    'gemini-2.5-flash',
    'gemini-2.5-flash-lite',
    'text-embedding-004',
    'gemini-embedding-001',
    'imagen-4.0-generate-001',
    'veo-3.0-generate-001',
  ],
};

describe('the shipped catalog prices', () => {
  const catalog = new Catalog();

  it('price every current first-party model, each with its source and date', () => {
    for (const [vendor, ids] of Object.entries(REQUIRED)) {
      for (const id of ids) {
        const entry = catalog.get(id);
        expect(entry, id).toBeDefined();
        expect(entry!.ownedBy, id).toBe(vendor);
        expect(catalog.priceOf(id), id).toBeDefined();
        expect(entry!.priceSource?.url, id).toMatch(/\S/);
        expect(entry!.priceSource?.date, id).toMatch(/^\d{4}-\d{2}/);
      }
    }
  });

  it('name a source and a date for every priced model', () => {
    const missing = catalog.all().filter((entry) => entry.price && !entry.priceSource);
    expect(missing.map((entry) => entry.id)).toEqual([]);
  });

  it('bill images and seconds of video per unit', () => {
    for (const id of ['gpt-image-1', 'dall-e-3', 'imagen-4.0-generate-001', 'sora-2', 'veo-3.0-generate-001']) {
      expect(catalog.priceOf(id)!.perUnitNusd, id).toBeGreaterThan(0);
    }
    // sora-2: $0.10 a second (openai.com/api/pricing).
    expect(catalog.priceOf('sora-2')!.perUnitNusd).toBe(100_000_000);
  });

  it('carry the long-context tiers the vendors charge', () => {
    // Gemini 2.5 Pro above 200k: $2.50 in, $15 out per million; Sonnet 4.5 with 1M context: $6 / $22.50.
    expect(catalog.priceOf('gemini-2.5-pro')!.above).toMatchObject({ threshold: 200_000, inputMicros: 2_500_000, outputMicros: 15_000_000 });
    expect(catalog.priceOf('claude-sonnet-4-5')!.above).toMatchObject({ threshold: 200_000, inputMicros: 6_000_000, outputMicros: 22_500_000 });
    // Gemini 3.1 Pro Preview above 200k: $4 in, $18 out, $0.40 cached; GPT-5.5 above 272k: $10 in, $45 out, $1 cached.
    expect(catalog.priceOf('gemini-3.1-pro-preview')!.above).toMatchObject({
      threshold: 200_000,
      inputMicros: 4_000_000,
      outputMicros: 18_000_000,
      cacheReadMicros: 400_000,
    });
    expect(catalog.priceOf('gpt-5.5')!.above).toMatchObject({
      threshold: 272_000,
      inputMicros: 10_000_000,
      outputMicros: 45_000_000,
      cacheReadMicros: 1_000_000,
    });
    // Opus 4.6 and Sonnet 4.6 take 1M tokens at one price: no tier.
    expect(catalog.priceOf('claude-opus-4-6')!.above).toBeUndefined();
    expect(catalog.priceOf('claude-sonnet-4-6')!.above).toBeUndefined();
  });

  it('declare the capabilities routing checks for the chat models', () => {
    expect(catalog.get('gpt-5')!.capabilities).toEqual(expect.arrayContaining(['tools', 'vision', 'json_schema', 'reasoning']));
    expect(catalog.get('gpt-4o')!.capabilities).not.toContain('reasoning');
    expect(catalog.get('claude-sonnet-4-5')!.capabilities).toContain('pdf');
  });
});
