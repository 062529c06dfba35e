import { describe, expect, it } from 'vitest';
import type { ImageInput } from '../../core/image.js';
import type { VideoImageRole } from '../../core/task.js';
import { arkImageItems } from './ark-image-content.js';

const png = (extra: Partial<ImageInput> = {}): ImageInput => ({ data: Uint8Array.from([1, 2, 3]), mediaType: 'image/png', width: 640, height: 480, ...extra });

describe('arkImageItems', () => {
  it('is empty without images', () => {
    expect(arkImageItems(undefined, undefined)).toEqual([]);
    expect(arkImageItems([], [])).toEqual([]);
  });

  it('sends an image without a role as the first frame, inline as a lowercase data URL', () => {
    expect(arkImageItems([png({ mediaType: 'IMAGE/PNG' })], undefined)).toEqual([
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AQID' }, role: 'first_frame' },
    ]);
    expect(arkImageItems([png({ mediaType: 'image/jpg' })], undefined)[0].image_url.url).toBe('data:image/jpeg;base64,AQID');
  });

  it("sends the client's own URL when it gave one", () => {
    expect(arkImageItems([png({ sourceUrl: 'https://img.example/cat.png' })], ['first_frame'])[0].image_url.url).toBe('https://img.example/cat.png');
  });

  it('puts the first frame before the last', () => {
    const items = arkImageItems(
      [png({ sourceUrl: 'https://img.example/end.png' }), png({ sourceUrl: 'https://img.example/start.png' })],
      ['last_frame', 'first_frame'],
    );
    expect(items.map((item) => [item.role, item.image_url.url])).toEqual([
      ['first_frame', 'https://img.example/start.png'],
      ['last_frame', 'https://img.example/end.png'],
    ]);
  });

  it('takes 1 to 4 reference images', () => {
    for (const n of [1, 4])
      expect(
        arkImageItems(
          Array.from({ length: n }, () => png()),
          Array(n).fill('reference_image'),
        ),
      ).toHaveLength(n);
  });

  it.each([
    [['last_frame']],
    [['first_frame', 'first_frame']],
    [['first_frame', 'reference_image']],
    [['first_frame', 'last_frame', 'last_frame']],
    [Array(5).fill('reference_image')],
    [[undefined, undefined]],
  ] as Array<[Array<VideoImageRole | undefined>]>)('refuses the roles %o naming images', (roles) => {
    const images = roles.map(() => png());
    expect(() => arkImageItems(images, roles as VideoImageRole[])).toThrow(expect.objectContaining({ kind: 'invalid_request', param: 'images' }));
  });

  it.each([
    [png({ mediaType: 'image/svg+xml' })],
    [png({ width: 300, height: 400 })],
    [png({ width: 6000, height: 4000 })],
    [png({ width: 2500, height: 1000 })],
    [png({ data: new Uint8Array(30 * 1024 * 1024) })],
  ])("refuses an image outside Ark's limits naming images (%#)", (image) => {
    expect(() => arkImageItems([image], undefined)).toThrow(expect.objectContaining({ kind: 'invalid_request', param: 'images' }));
  });
});
