import { describe, expect, it } from 'vitest';
import { withFields } from './with-fields.js';

describe('withFields', () => {
  it('copies the base and sets the fields over it, leaving the base as it was', () => {
    const base = { model: 'a', stream: true, extra: { deep: 1 } };
    const copy = withFields(base, { model: 'b', operation: 'chat' });
    expect(copy).toEqual({ model: 'b', stream: true, extra: { deep: 1 }, operation: 'chat' });
    expect(base).toEqual({ model: 'a', stream: true, extra: { deep: 1 } });
    expect(copy.extra).toBe(base.extra);
  });

  it('keeps a field set to undefined, as a spread does', () => {
    const copy = withFields({ a: 1, b: 2 }, { b: undefined });
    expect(Object.keys(copy)).toEqual(['a', 'b']);
    expect(copy).toEqual({ a: 1, b: undefined });
  });
});
