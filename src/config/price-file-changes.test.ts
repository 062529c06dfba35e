import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Catalog } from '../routing/catalog.js';
import { ConfigError } from './config-error.js';
import { importedModel, parsePriceFile } from './litellm-price-file.js';
import { priceFileChanges } from './price-file-changes.js';

const FIXTURE = readFileSync(new URL('../../test/fixtures/litellm-model-prices.json', import.meta.url), 'utf8');
const SOURCE = { url: 'litellm fixture', date: '2026-11-27' };

describe('a LiteLLM price file', () => {
  it('converts costs per token to USD per million exactly, the 200k costs to the long-context tier, and flags to capabilities', () => {
    const file = parsePriceFile(FIXTURE, 'fixture');
    const sonnet = importedModel(file.entries.get('claude-sonnet-4-5')!, 'claude-sonnet-4-5');
    // 3e-06 per token is $3 per million; 1.25e-06 × 10⁶ is 1.2499999999999998 in floats, kept exact here.
    expect(sonnet.price).toEqual({
      input: 3,
      output: 15,
      cacheRead: 0.3,
      cacheWrite: 3.75,
      above: { threshold: 200_000, input: 6, output: 22.5, cacheRead: 0.6, cacheWrite: 7.5 },
    });
    expect(importedModel(file.entries.get('gpt-5')!, 'gpt-5').price?.input).toBe(1.25);
    expect(sonnet.capabilities).toEqual(['tools', 'vision', 'pdf', 'json_schema', 'reasoning']);
    expect(importedModel(file.entries.get('sora-2')!, 'sora-2').price).toEqual({ perUnit: 0.12 });
    expect(file.entries.has('sample_spec')).toBe(false);
  });

  it('lists only what differs from the catalog in force, one line per field', () => {
    const changes = priceFileChanges(new Catalog().all(), parsePriceFile(FIXTURE, 'fixture'), SOURCE);
    const byId = Object.fromEntries(changes.map((change) => [change.id, change]));
    // gpt-5 is priced in the file as in the shipped catalog: no change.
    // claude-sonnet-4-5: the file's 200k input limit is its default context, at its own tier above
    // 200k; taking it would refuse what the tier prices, so the catalog's 1M stays: no change.
    expect(Object.keys(byId).sort()).toEqual(['gemini-2.0-flash', 'gpt-4o-mini', 'sora-2']);
    expect(byId['gpt-4o-mini'].lines).toEqual(['price.input 0.15 → 0.16', 'price.output 0.6 → 0.64']);
    expect(byId['gpt-4o-mini'].override).toEqual({ id: 'gpt-4o-mini', price: { input: 0.16, output: 0.64 }, priceSource: SOURCE });
    expect(byId['sora-2'].lines).toEqual(['price.perUnit 0.1 → 0.12']);
    expect(byId['gemini-2.0-flash'].key).toBe('gemini/gemini-2.0-flash');
    expect(byId['gemini-2.0-flash'].lines).toEqual(['capabilities [tools, vision, pdf, json_schema] → [tools, vision, pdf, json_schema, reasoning]']);
  });

  it('refuses a malformed file with an error that says what is wrong', () => {
    expect(() => parsePriceFile('{"gpt-5": ', 'prices.json')).toThrow(/prices.json: not JSON/);
    expect(() => parsePriceFile('[1, 2]', 'prices.json')).toThrow(/expected an object with one entry per model id/);
    expect(() => parsePriceFile('{"gpt-5": 3}', 'prices.json')).toThrow(/entry "gpt-5" must be an object/);
    const bad = parsePriceFile('{"gpt-5": {"input_cost_per_token": -1, "mode": "chat"}}', 'prices.json');
    expect(() => priceFileChanges(new Catalog().all(), bad, SOURCE)).toThrow(ConfigError);
    expect(() => priceFileChanges(new Catalog().all(), bad, SOURCE)).toThrow(/entry "gpt-5"\.input_cost_per_token must be a cost per token/);
    const tooMany = `{${Array.from({ length: 50_001 }, (_, i) => `"m${i}":{}`).join(',')}}`;
    expect(() => parsePriceFile(tooMany, 'prices.json')).toThrow(/more than 50000 entries/);
  });
});
