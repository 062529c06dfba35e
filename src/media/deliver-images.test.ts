import { afterEach, describe, expect, it } from 'vitest';
import { blackPng, pngHeader } from '../../test/helpers/image-headers.js';
import { DEFAULT_MAX_IMAGE_PIXELS } from '../core/image-bytes.js';
import { configureImageDecoding } from './image-decoding.js';
import type { MediaStore } from './media-store.js';
import { deliverImages, type DeliveryContext } from './deliver-images.js';

const unusedStore: MediaStore = {
  putStream: () => Promise.reject(new Error('unused')),
  remove: () => Promise.resolve(),
  put: () => Promise.reject(new Error('not used')),
  open: () => Promise.reject(new Error('not used')),
  sweep: () => Promise.reject(new Error('not used')),
  close: () => Promise.resolve(),
  checkRoom: () => Promise.resolve(),
};
const context: DeliveryContext = {
  media: unusedStore,
  responseFormat: 'b64_json',
  publicBaseUrl: 'http://gw',
  owner: 'account-1',
  download: () => Promise.reject(new Error('not used')),
};

describe('deliverImages', () => {
  afterEach(() => configureImageDecoding({ maxPixels: DEFAULT_MAX_IMAGE_PIXELS }));

  it('reads the real type and size of an upstream image', async () => {
    const delivered = await deliverImages({ created: 1, images: [{ data: blackPng(30, 20), mediaType: 'image/jpeg' }] }, context);
    expect(delivered.images[0]).toMatchObject({ mediaType: 'image/png', width: 30, height: 20, resolution: '30x20' });
  });

  it('finding 3: refuses an upstream image over the pixel cap as a retryable upstream error', async () => {
    configureImageDecoding({ maxPixels: 1_000_000 });
    const error = await deliverImages({ created: 1, images: [{ data: pngHeader(1001, 1000), mediaType: 'image/png' }] }, context).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'upstream', retryable: true, message: 'the upstream answered an image larger than the pixel limit' });
    const garbage = await deliverImages({ created: 1, images: [{ data: Buffer.from('no image here'), mediaType: 'image/png' }] }, context).catch(
      (e: unknown) => e,
    );
    expect(garbage).toMatchObject({ kind: 'upstream', message: 'the upstream answered bytes that are not an image' });
  });
});
