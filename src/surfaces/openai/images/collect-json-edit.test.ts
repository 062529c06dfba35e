import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../core/errors.js';
import { collectJsonEdit } from './collect-json-edit.js';

describe('collectJsonEdit', () => {
  it('takes `image` as a string or a list, `images` as image_url references, `mask` as a string or a reference', () => {
    expect(collectJsonEdit({ model: 'm', prompt: 'p', image: 'https://x.example/a.png', mask: 'data:image/png;base64,AAAA' })).toEqual({
      fields: { model: 'm', prompt: 'p', image: 'https://x.example/a.png', mask: 'data:image/png;base64,AAAA' },
      images: [{ kind: 'string', value: 'https://x.example/a.png', param: 'image' }],
      imagesParam: 'image',
      mask: { kind: 'string', value: 'data:image/png;base64,AAAA', param: 'mask' },
    });
    const parts = collectJsonEdit({
      model: 'm',
      prompt: 'p',
      images: [{ image_url: 'https://x.example/a.png' }, { image_url: { url: 'data:image/png;base64,BBBB' } }],
      mask: { image_url: 'https://x.example/m.png' },
    });
    expect(parts.images).toEqual([
      { kind: 'string', value: 'https://x.example/a.png', param: 'images[0].image_url' },
      { kind: 'string', value: 'data:image/png;base64,BBBB', param: 'images[1].image_url.url' },
    ]);
    expect(parts.imagesParam).toBe('images');
    expect(parts.mask).toEqual({ kind: 'string', value: 'https://x.example/m.png', param: 'mask.image_url' });
    expect(collectJsonEdit({ image: ['a', 'b'] }).images.map((image) => image.param)).toEqual(['image[0]', 'image[1]']);
  });

  it.each([
    ['a file_id', { images: [{ file_id: 'file-1' }] }, 'images[0].file_id'],
    ['a reference without image_url', { images: [{}] }, 'images[0].image_url'],
    ['a numeric image', { image: 5 }, 'image'],
    ['images that are not a list', { images: 'https://x.example/a.png' }, 'images'],
    ['a mask reference with a file_id', { mask: { file_id: 'file-2' } }, 'mask.file_id'],
  ])('rejects %s naming the param', (_label, body, param) => {
    let error: unknown;
    try {
      collectJsonEdit(body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect([(error as GatewayError).status, (error as GatewayError).param]).toEqual([400, param]);
  });
});
