/**
 * models.dev's api.json read into catalog changes. The fixture is api.json's shape as models.dev
 * generates it from its providers/*.toml (openai, anthropic, azure entries copied from them), with
 * openai's gpt-4o-mini priced 0.16 / 0.64 so that the import has a price to change, openai's o3
 * given a malformed cost, and azure given an entry that is not an object.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../routing/catalog.js';
import { parsePriceDocument } from './litellm-price-file.js';
import { modelsDevChanges, modelsDevFileOf, modelsDevSource } from './models-dev-file.js';
import type { CatalogEntry } from './types.js';

const FIXTURE = readFileSync(new URL('../../test/fixtures/models-dev-api.json', import.meta.url), 'utf8');
const DATE = '2026-11-27';
const options = (provider?: string) => ({ provider, source: (p: string, key: string) => modelsDevSource(p, key, DATE) });
const fixture = () => modelsDevFileOf(parsePriceDocument(FIXTURE, 'api.json', 'providers'), 'api.json');
const file = (document: unknown) => modelsDevFileOf(document as Record<string, unknown>, 'api.json');
const chat = (id: string, ownedBy: string, more: Partial<CatalogEntry> = {}): CatalogEntry => ({ id, operations: ['chat'], ownedBy, displayName: id, ...more });

/** A provider's entry as api.json has it, with the fields given. */
function entry(fields: Record<string, unknown>): Record<string, unknown> {
  return { name: 'M', attachment: true, reasoning: false, tool_call: true, modalities: { input: ['text'], output: ['text'] }, ...fields };
}

describe('a models.dev api.json', () => {
  it('reads prices per million as stated, a context tier at its exact size, limit.input before the context, and capabilities', () => {
    const { changes, warnings } = modelsDevChanges([chat('gpt-5.4', 'openai')], fixture(), options());
    // o3's malformed cost is not read: no catalog model here asks for it.
    expect(warnings).toEqual(['api.json: model "azure/not-a-model" is not an object: skipped']);
    expect(changes).toHaveLength(1);
    const [change] = changes;
    expect(change.key).toBe('openai/gpt-5.4');
    // tiers[0] is at 272,000 tokens; the legacy context_over_200k field does not say so.
    expect(change.override).toEqual({
      id: 'gpt-5.4',
      price: { input: 2.5, output: 15, cacheRead: 0.25, above: { threshold: 272_000, input: 5, output: 22.5, cacheRead: 0.5 } },
      priceSource: { url: 'https://models.dev/api.json#openai/gpt-5.4', date: DATE },
      inputTokenLimit: 922_000,
      outputTokenLimit: 128_000,
      capabilities: ['tools', 'vision', 'pdf', 'json_schema', 'reasoning'],
    });
    expect(change.lines).toContain('price.above (none) → {above 272000: input 5 output 22.5 cacheRead 0.5}');
  });

  it('reads context_over_200k as the tier above 200,000 tokens when the file has no tiers', () => {
    const { changes } = modelsDevChanges([chat('claude-sonnet-4-5', 'anthropic', { price: { input: 3, output: 15 } })], fixture(), options());
    expect(changes[0].override.price).toEqual({
      cacheRead: 0.3,
      cacheWrite: 3.75,
      above: { threshold: 200_000, input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5 },
    });
    // No structured_output in the entry: the catalog's json_schema (none here) stays.
    expect(changes[0].override.capabilities).toEqual(['tools', 'vision', 'pdf', 'reasoning']);
  });

  it("reads a model listed by several providers from its vendor's, and from --provider's when given", () => {
    const models = new Catalog().all();
    const byVendor = modelsDevChanges(models, fixture(), options());
    const mini = byVendor.changes.find((change) => change.id === 'gpt-4o-mini');
    // openai's 0.16, not azure's 0.15.
    expect(mini?.key).toBe('openai/gpt-4o-mini');
    expect(mini?.lines).toEqual(['price.input 0.15 → 0.16', 'price.output 0.6 → 0.64']);
    // gpt-4.1-nano is only azure's: a note, no change.
    expect(byVendor.changes.some((change) => change.id === 'gpt-4.1-nano')).toBe(false);
    expect(byVendor.notes).toContain('gpt-4.1-nano: not listed by its vendor\'s provider "openai", only by azure: not imported (--provider reads one of them)');

    const nano = models.map((model) => (model.id === 'gpt-4.1-nano' ? { ...model, price: { input: 0.12, output: 0.4, cacheRead: 0.025 } } : model));
    const byAzure = modelsDevChanges(nano, fixture(), options('azure'));
    expect(byAzure.changes.map((change) => [change.key, change.lines])).toEqual([['azure/gpt-4.1-nano', ['price.input 0.12 → 0.1']]]);
    expect(byAzure.changes[0].override.priceSource?.url).toBe('https://models.dev/api.json#azure/gpt-4.1-nano');
    expect(() => modelsDevChanges(models, fixture(), options('nope'))).toThrow(/--provider nope: no such provider in the file/);
  });

  it("keeps an input limit that would leave the model's long-context tier unreachable, and an embedding's dimensions out of its limits", () => {
    const { changes, notes } = modelsDevChanges(new Catalog().all(), fixture(), options());
    const byId = Object.fromEntries(changes.map((change) => [change.id, change]));
    // Anthropic's 1M context is opt-in: models.dev says 200,000, the catalog's tier starts there.
    expect(byId['claude-sonnet-4-5']).toBeUndefined();
    expect(notes).toContain(
      'claude-sonnet-4-5: "anthropic/claude-sonnet-4-5"\'s input limit 200000 is at or below its price tier above 200000: inputTokenLimit 1000000 kept',
    );
    // text-embedding-3-small's limit.output 1536 is its dimensions; its context and price are the catalog's.
    expect(byId['text-embedding-3-small']).toBeUndefined();
    expect(byId['gpt-5-pro'].lines).toEqual(['outputTokenLimit 272000 → 280000']);
  });

  it("reads an aggregator's vendor/id entry under --provider", () => {
    const aggregator = file({ openrouter: { models: { 'openai/gpt-4o-mini': entry({ cost: { input: 0.2, output: 0.7 } }) } } });
    const { changes } = modelsDevChanges([chat('gpt-4o-mini', 'openai')], aggregator, options('openrouter'));
    expect(changes[0].key).toBe('openrouter/openai/gpt-4o-mini');
    expect(changes[0].override.price).toEqual({ input: 0.2, output: 0.7 });
  });

  it('skips a malformed entry with a warning naming it and the field, and reads the others', () => {
    const { changes, warnings } = modelsDevChanges(new Catalog().all(), fixture(), options());
    expect(warnings).toEqual([
      'api.json: model "azure/not-a-model" is not an object: skipped',
      '"openai/o3".cost.input must be a price in USD per million tokens (a number from 0): entry skipped',
    ]);
    expect(changes.some((change) => change.id === 'o3')).toBe(false);
    expect(changes.some((change) => change.id === 'gpt-4o-mini')).toBe(true);

    const bad = file({
      broken: 'not a provider',
      openai: {
        models: {
          a: entry({ cost: { input: 1, output: 2, tiers: { size: 1 } } }),
          b: entry({ tool_call: 'yes' }),
          c: entry({ limit: { context: 1.5 } }),
          d: entry({ cost: { input: -1, output: 2 } }),
          e: entry({ modalities: { input: 'text' } }),
          f: entry({ cost: { input: 1, output: 2, context_over_200k: { input: 2 } } }),
        },
      },
    });
    const models = ['a', 'b', 'c', 'd', 'e', 'f'].map((id) => chat(id, 'openai'));
    const result = modelsDevChanges(models, bad, options());
    expect(result.changes).toEqual([]);
    expect(result.warnings).toEqual([
      'api.json: provider "broken" has no models object: skipped',
      '"openai/a".cost.tiers must be a list of at most 32 tiers: entry skipped',
      '"openai/b".tool_call must be true or false: entry skipped',
      '"openai/c".limit.context must be a whole number of tokens: entry skipped',
      '"openai/d".cost.input must be a price in USD per million tokens (a number from 0): entry skipped',
      '"openai/e".modalities.input must be a list of modalities: entry skipped',
      '"openai/f".cost.context_over_200k must have an input and an output cost: entry skipped',
    ]);
  });

  it('takes tools, reasoning and vision as stated, and keeps the catalog’s pdf and json_schema when the entry does not state them', () => {
    const known = { capabilities: ['tools', 'vision', 'pdf', 'json_schema'] as CatalogEntry['capabilities'] };
    const doc = file({
      openai: {
        models: {
          silent: entry({ tool_call: false, modalities: { input: ['text'], output: ['text'] } }),
          stated: entry({ reasoning: true, structured_output: false, modalities: { input: ['text', 'image', 'pdf'], output: ['text'] } }),
        },
      },
    });
    const { changes } = modelsDevChanges([chat('silent', 'openai', known), chat('stated', 'openai', known)], doc, options());
    const capabilities = Object.fromEntries(changes.map((change) => [change.id, change.override.capabilities]));
    expect(capabilities).toEqual({ silent: ['pdf', 'json_schema'], stated: ['tools', 'vision', 'pdf', 'reasoning'] });
  });

  it('leaves per-unit prices alone and ignores the tiers of other kinds', () => {
    const image: CatalogEntry = {
      id: 'gpt-image-1',
      operations: ['image.generate'],
      ownedBy: 'openai',
      displayName: 'GPT Image 1',
      price: { input: 0, output: 0, perUnit: 0.042 },
    };
    const doc = file({
      openai: {
        models: {
          'gpt-image-1': entry({ cost: { input: 5, output: 40 }, limit: { context: 0, output: 0 } }),
          x: entry({ cost: { input: 1, output: 2, tiers: [{ input: 3, output: 4, tier: { type: 'priority', size: 0 } }] } }),
        },
      },
    });
    const { changes, notes } = modelsDevChanges([image, chat('x', 'openai')], doc, options());
    expect(changes.map((change) => change.id)).toEqual(['x']);
    expect(changes[0].override.price).toEqual({ input: 1, output: 2 });
    expect(notes).toEqual(['gpt-image-1: priced per unit in the catalog; "openai/gpt-image-1"\'s per-token costs not imported']);
  });

  it('refuses a file that has no provider, or more entries than a price file', () => {
    expect(() => file({ 'gpt-5': { input_cost_per_token: 1e-6 } })).toThrow(/no provider with a "models" object: not models.dev's api.json/);
    const models = Object.fromEntries(Array.from({ length: 50_001 }, (_, i) => [`m${i}`, {}]));
    expect(() => file({ big: { models } })).toThrow(/more than 50000 entries/);
  });
});
