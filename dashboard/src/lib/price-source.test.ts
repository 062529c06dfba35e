import { describe, expect, it } from 'vitest';
import { sourceLink } from './price-source.js';

describe('a price source as a link', () => {
  it('links a web address, fragment kept, and leaves other text (and other schemes) unlinked', () => {
    expect(sourceLink('https://openai.com/api/pricing/')).toBe('https://openai.com/api/pricing/');
    expect(sourceLink('https://models.dev/api.json#openai/gpt-4o-mini')).toBe('https://models.dev/api.json#openai/gpt-4o-mini');
    expect(sourceLink('LiteLLM model_prices_and_context_window.json (prices.json)')).toBeUndefined();
    expect(sourceLink('javascript:alert(1)')).toBeUndefined();
    expect(sourceLink('file:///etc/passwd')).toBeUndefined();
  });
});
