import { describe, expect, it } from 'vitest';
import type { AuthenticatedKey } from '../core/key.js';
import { keyMayUse } from './key-may-use.js';

const key = (models: string[] | null): AuthenticatedKey => ({ id: 'k', name: 'k', models, isMaster: false, accountId: null });

describe('keyMayUse', () => {
  it('matches wildcard and literal scopes', () => {
    const flash = key(['textmodel-c-2.5-flash*', 'black-forest-labs/flux-schnell']);
    expect(keyMayUse(flash, 'textmodel-c-2.5-flash')).toBe(true);
    expect(keyMayUse(flash, 'textmodel-c-2.5-flash-lite')).toBe(true);
    expect(keyMayUse(flash, 'black-forest-labs/flux-schnell')).toBe(true);
    expect(keyMayUse(flash, 'textmodel-c-2.5-pro')).toBe(false);
    expect(keyMayUse(key(null), 'anything')).toBe(true);
  });

  it('finding 2: a scope matches normal-form ids only, never a spelling that names another path', () => {
    const flash = key(['textmodel-c-2.5-flash*']);
    for (const model of [
      'textmodel-c-2.5-flash/../gemini-2.5-pro',
      'textmodel-c-2.5-flash%2F..%2Fgemini-2.5-pro',
      'textmodel-c-2.5-flash\\..\\gemini-2.5-pro',
      'textmodel-c-2.5-flash?x',
      'textmodel-c-2.5-flash#x',
      'textmodel-c-2.5-flash/./x',
    ]) {
      expect(keyMayUse(flash, model)).toBe(false);
    }
    expect(keyMayUse(key(['*']), '..')).toBe(false);
  });
});
