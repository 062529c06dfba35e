import { describe, expect, it } from 'vitest';
import { jsonCreateParts } from './create-parts.js';

describe('jsonCreateParts', () => {
  it('separates input_reference from the other fields, as a URL string or {image_url}', () => {
    expect(jsonCreateParts({ model: 'm', prompt: 'p' })).toEqual({ fields: { model: 'm', prompt: 'p' } });
    expect(jsonCreateParts({ model: 'm', input_reference: 'https://x/i.png' })).toEqual({
      fields: { model: 'm' },
      reference: { kind: 'url', value: 'https://x/i.png' },
    });
    expect(jsonCreateParts({ input_reference: { image_url: 'data:image/png;base64,AA' } }).reference).toEqual({
      kind: 'url',
      value: 'data:image/png;base64,AA',
    });
    expect(jsonCreateParts({ input_reference: { file_id: 'file_1' } }).reference).toEqual({ kind: 'file_id' });
    expect(jsonCreateParts({ input_reference: null })).toEqual({ fields: {} });
  });

  it('refuses a body that is not an object and a reference without an image, naming the field', () => {
    expect(() => jsonCreateParts(undefined)).toThrow(/empty/);
    expect(() => jsonCreateParts([1])).toThrow(/JSON object/);
    expect(() => jsonCreateParts({ input_reference: {} })).toThrow(expect.objectContaining({ param: 'input_reference' }));
    expect(() => jsonCreateParts({ input_reference: 5 })).toThrow(expect.objectContaining({ param: 'input_reference' }));
  });
});
