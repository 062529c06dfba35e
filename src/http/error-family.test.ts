import { describe, expect, it } from 'vitest';
import type { ErrorRenderer } from './error-renderer.js';
import { errorFamilies, isSharedModelsPath } from './error-family.js';

describe('errorFamilies', () => {
  const render: ErrorRenderer = () => ({ status: 400, body: {} });
  const dialects = ['openai', 'anthropic', 'gemini'].map((name) => ({ name, pathPrefixes: [], render }));

  it('gives a prefix its whole subtree, not the paths that merely start with it', () => {
    const families = errorFamilies([...dialects, { name: 'admin', pathPrefixes: ['/admin', '/ops'], render }], 'openai');
    expect(families.familyOf('/admin')).toBe('admin');
    expect(families.familyOf('/ops/keys?x=1')).toBe('admin');
    expect(families.familyOf('/administrator')).toBe('openai');
  });

  it('needs the fallback and the three dialects of the shared model routes', () => {
    expect(() => errorFamilies(dialects, 'admin')).toThrow('no error family named admin');
    expect(() => errorFamilies(dialects.slice(1), 'anthropic')).toThrow('no error family named openai');
  });

  it('knows which paths the shared model routes serve', () => {
    expect(isSharedModelsPath('/v1/models')).toBe(true);
    expect(isSharedModelsPath('/v1/models/gpt-4o')).toBe(true);
    expect(isSharedModelsPath('/v1/models/x:generateContent')).toBe(false);
    expect(isSharedModelsPath('/v1/models/a/b')).toBe(false);
  });
});
