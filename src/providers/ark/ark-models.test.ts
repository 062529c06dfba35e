import { describe, expect, it } from 'vitest';
import { arkDurationRange, arkModelFor } from './ark-models.js';

describe('arkModelFor', () => {
  it('splits the lite family into text-to-video and image-to-video by whether an image came', () => {
    expect(arkModelFor('doubao-seedance-1-0-lite', false)).toBe('doubao-seedance-1-0-lite-t2v-250428');
    expect(arkModelFor('doubao-seedance-1-0-lite', true)).toBe('doubao-seedance-1-0-lite-i2v-250428');
  });

  it('keeps full names as they are', () => {
    expect(arkModelFor('doubao-seedance-1-0-pro-250528', false)).toBe('doubao-seedance-1-0-pro-250528');
    expect(arkModelFor('doubao-seedance-1-0-pro-250528', true)).toBe('doubao-seedance-1-0-pro-250528');
    expect(arkModelFor('doubao-seedance-1-0-lite-i2v-250428', true)).toBe('doubao-seedance-1-0-lite-i2v-250428');
    expect(arkModelFor('ep-20250601-abcde', true)).toBe('ep-20250601-abcde');
  });

  it('refuses an image for a text-to-video model and none for an image-to-video one, naming images', () => {
    expect(() => arkModelFor('doubao-seedance-1-0-lite-t2v-250428', true)).toThrow(expect.objectContaining({ kind: 'invalid_request', param: 'images' }));
    expect(() => arkModelFor('doubao-seedance-1-0-lite-i2v-250428', false)).toThrow(expect.objectContaining({ kind: 'invalid_request', param: 'images' }));
  });
});

describe('arkDurationRange', () => {
  it('follows the model line', () => {
    expect(arkDurationRange('doubao-seedance-1-0-lite-t2v-250428')).toEqual({ min: 2, max: 12 });
    expect(arkDurationRange('doubao-seedance-1-5-pro-251215')).toEqual({ min: 4, max: 12 });
    expect(arkDurationRange('doubao-seedance-2-0-260128')).toEqual({ min: 4, max: 15 });
    expect(arkDurationRange('ep-20250601-abcde')).toEqual({ min: 2, max: 15 });
  });
});
