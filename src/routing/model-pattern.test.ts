import { describe, expect, it } from 'vitest';
import { compileModelPattern } from './model-pattern.js';

describe('model patterns', () => {
  it('matches literally without a wildcard, dots included', () => {
    const match = compileModelPattern('textmodel-b-3.5-turbo');
    expect(match('textmodel-b-3.5-turbo')).toBe(true);
    expect(match('textmodel-b-3x5-turbo')).toBe(false);
  });

  it('lets * stand for any run of characters, anywhere', () => {
    expect(compileModelPattern('textmodel-a-*')('textmodel-a-sonnet-4-20250514')).toBe(true);
    expect(compileModelPattern('textmodel-a-*')('textmodel-b-4o')).toBe(false);
    expect(compileModelPattern('*-mini')('textmodel-b-4o-mini')).toBe(true);
  });
});
