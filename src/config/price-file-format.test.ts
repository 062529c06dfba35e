import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePriceDocument } from './litellm-price-file.js';
import { detectPriceFileFormat } from './price-file-format.js';

const read = (name: string) => parsePriceDocument(readFileSync(new URL(`../../test/fixtures/${name}`, import.meta.url), 'utf8'), name, 'entries');

describe('the format of a price file', () => {
  it("is LiteLLM's when no entry has a models object, models.dev's when most do", () => {
    expect(detectPriceFileFormat(read('litellm-model-prices.json'), 'prices.json')).toBe('litellm');
    expect(detectPriceFileFormat(read('models-dev-api.json'), 'api.json')).toBe('models.dev');
    // One malformed provider among three does not make it LiteLLM's.
    expect(detectPriceFileFormat({ a: { models: {} }, b: { models: {} }, c: 'broken' }, 'api.json')).toBe('models.dev');
  });

  it('is refused when half the entries or fewer look like providers', () => {
    expect(() => detectPriceFileFormat({ a: { models: {} }, 'gpt-5': { input_cost_per_token: 1e-6 } }, 'x.json')).toThrow(
      /x.json: cannot tell the format \(1 of 2 entries have a "models" object.*give --format litellm or --format models.dev/,
    );
  });
});
