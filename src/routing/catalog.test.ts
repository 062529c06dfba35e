import { describe, expect, it } from 'vitest';
import { readModelCatalog, SHIPPED_CATALOG_PATH } from '../config/load-model-catalog.js';
import { Catalog } from './catalog.js';

// The model ids of the API spec (chat, embeddings and images), written out here on purpose.
const SPEC_CHAT_IDS = [
  'textmodel-a-haiku-4-5-20251001',
  'textmodel-a-sonnet-4-20250514',
  'textmodel-a-opus-4-5-20251101',
  'textmodel-b-4',
  'textmodel-b-4-turbo',
  'textmodel-b-4o',
  'textmodel-b-4o-mini',
  'textmodel-b-3.5-turbo',
  'textmodel-c-2.0-flash',
  'textmodel-c-2.5-pro',
  'textmodel-c-2.5-flash',
  'textmodel-c-3-pro-preview',
];
// The vendors' own ids the coding agents send by default, also written out on purpose.
const VENDOR_CHAT_IDS = [
  'claude-fable-5',
  'claude-opus-4-8',
  'claude-opus-4-7',
  'claude-opus-4-6',
  'claude-sonnet-5',
  'claude-sonnet-4-6',
  'claude-opus-4-5',
  'claude-opus-4-5-20251101',
  'claude-sonnet-4-5',
  'claude-sonnet-4-5-20250929',
  'claude-haiku-4-5',
  'claude-haiku-4-5-20251001',
  'claude-opus-4-1',
  'claude-opus-4-1-20250805',
  'claude-sonnet-4-0',
  'claude-sonnet-4-20250514',
  'claude-opus-4-0',
  'claude-opus-4-20250514',
  'claude-3-7-sonnet-latest',
  'claude-3-7-sonnet-20250219',
  'claude-3-5-haiku-latest',
  'claude-3-5-haiku-20241022',
  'gpt-5.5',
  'gpt-5.5-pro',
  'gpt-5.4',
  'gpt-5.4-pro',
  'gpt-5.4-mini',
  'gpt-5.4-nano',
  'gpt-5.3-codex',
  'gpt-5.2',
  'gpt-5.2-codex',
  'gpt-5.2-pro',
  'gpt-5',
  'gpt-5-codex',
  'gpt-5.1',
  'gpt-5.1-codex',
  'gpt-5.1-codex-max',
  'gpt-5.1-codex-mini',
  'gpt-5-mini',
  'gpt-5-nano',
  'gpt-5-pro',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'gpt-4o',
  'gpt-4o-mini',
  'o3',
  'o3-pro',
  'o3-mini',
  'o4-mini',
  'gemini-3.5-flash',
  'gemini-3.1-pro-preview',
  'gemini-3.1-flash-lite',
  'gemini-3-pro-preview',
  'gemini-3-flash-preview',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
  'gemini-2.0-flash',
  'gemini-2.0-flash-lite',
];
const SPEC_IMAGE_GENERATE_IDS = ['imagegen1-pro', 'imagegen1-dev', 'imagegen1-schnell', 'imagegen1-1.1-pro', 'textmodel-b-image-1'];

describe('Catalog (shipped)', () => {
  const catalog = new Catalog();

  it("holds every chat model of the spec and the agents' vendor ids, with token limits and a token price", () => {
    for (const id of [...SPEC_CHAT_IDS, ...VENDOR_CHAT_IDS]) {
      const entry = catalog.get(id);
      expect(entry, id).toBeDefined();
      expect(entry!.operations).toEqual(['chat']);
      expect(entry!.inputTokenLimit).toBeGreaterThan(0);
      expect(entry!.price!.input).toBeGreaterThan(0);
      expect(entry!.price!.output).toBeGreaterThan(entry!.price!.input);
      expect(entry!.outputTokenLimit, id).toBeGreaterThan(0);
    }
    // models.yaml's chat models are exactly these (the other files of catalog/ add other vendors' and the clouds' ids).
    const firstParty = new Set(readModelCatalog(SHIPPED_CATALOG_PATH).models.map((model) => model.id));
    const chat = catalog.servingOperation('chat').filter((id) => firstParty.has(id));
    expect(chat.sort()).toEqual([...SPEC_CHAT_IDS, ...VENDOR_CHAT_IDS].sort());
    const owner = (prefix: string) => VENDOR_CHAT_IDS.filter((id) => id.startsWith(prefix)).map((id) => catalog.get(id)!.ownedBy);
    expect(new Set(owner('claude-'))).toEqual(new Set(['anthropic']));
    expect(new Set(owner('gpt-'))).toEqual(new Set(['openai']));
    expect(new Set(owner('gemini-'))).toEqual(new Set(['google']));
  });

  it("holds the spec's embedding and image models with their operations and per-image prices", () => {
    expect(catalog.operationsOf('text-embedding-004')).toEqual(['embed']);
    for (const id of SPEC_IMAGE_GENERATE_IDS) {
      expect(catalog.operationsOf(id), id).toContain('image.generate');
      expect(catalog.get(id)!.price!.perUnit).toBeGreaterThan(0);
    }
    expect(catalog.operationsOf('textmodel-b-image-1')).toEqual(['image.edit', 'image.generate']);
    expect(catalog.operationsOf('imagegen2-v3')).toEqual(['image.remix', 'image.edit', 'image.blend', 'image.generate']);
    expect(catalog.operationsOf('not-a-model')).toEqual([]);
  });

  it('keeps the prices the ledger bills with', () => {
    // The placeholder carries Sonnet 4's whole price, its tier above 200k tokens too.
    expect(catalog.get('textmodel-a-sonnet-4-20250514')!.price).toEqual({
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
      above: { threshold: 200_000, input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5 },
    });
    expect(catalog.get('textmodel-b-4o-mini')!.price).toEqual({ input: 0.15, output: 0.6, cacheRead: 0.075 });
    expect(catalog.get('imagegen1-schnell')!.price).toEqual({ input: 0, output: 0, perUnit: 0.003 });
    expect(catalog.listingDate()).toBe(1_735_689_600);
  });
});

describe('Catalog.withOverrides', () => {
  it('changes a price field and keeps the others', () => {
    const catalog = Catalog.withOverrides([{ id: 'textmodel-b-4o', price: { input: 2 } }]);
    expect(catalog.get('textmodel-b-4o')).toMatchObject({ operations: ['chat'], ownedBy: 'openai', price: { input: 2, output: 10, cacheRead: 1.25 } });
    expect(new Catalog().get('textmodel-b-4o')!.price!.input).toBe(2.5);
  });

  it('adds a model', () => {
    const catalog = Catalog.withOverrides([{ id: 'house-llama', operations: ['chat'], displayName: 'House Llama', price: { input: 0.2, output: 0.4 } }]);
    expect(catalog.get('house-llama')).toEqual({
      id: 'house-llama',
      operations: ['chat'],
      ownedBy: 'gengate',
      displayName: 'House Llama',
      price: { input: 0.2, output: 0.4 },
    });
    expect(catalog.servingOperation('chat')).toContain('house-llama');
    expect(catalog.all()).toHaveLength(new Catalog().all().length + 1);
  });
});
