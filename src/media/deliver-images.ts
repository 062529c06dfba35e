/**
 * Takes over what an image provider produced: downloads images left at upstream URLs (they
 * expire) with the download function it is given, reads each image's real type and size, and
 * hands it to the client as asked — a link into the gateway's media store, or base64.
 */
import type { Metadata } from 'sharp';
import { openImage } from './image-decoding.js';
import { GatewayError } from '../core/errors.js';
import type { DeliveredImage, DeliveredImages, ImageResponseFormat, ImageResult } from '../core/image.js';
import type { MediaStore } from './media-store.js';

const FORMAT_TYPES: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };

export interface DeliveryContext {
  media: MediaStore;
  responseFormat: ImageResponseFormat;
  publicBaseUrl: string;
  /** Whose media quotas a stored image counts against (`mediaOwner`). */
  owner: string;
  /** Downloads an image an upstream left at a URL. */
  download(url: string): Promise<Uint8Array>;
}

export async function deliverImages(result: ImageResult, context: DeliveryContext): Promise<DeliveredImages> {
  if (result.images.length === 0) throw new GatewayError('upstream', 'the upstream produced no image', { retryable: true });
  const images = await Promise.all(result.images.map((image) => deliverOne(image, context)));
  return { created: result.created, images };
}

async function deliverOne(image: ImageResult['images'][number], context: DeliveryContext): Promise<DeliveredImage> {
  const { data: _data, url: _url, ...described } = image;
  let data = image.data;
  if (!data) {
    if (!image.url) throw new GatewayError('upstream', 'the upstream answered an image with neither bytes nor a URL', { retryable: true });
    data = await context.download(image.url);
  }
  let metadata: Metadata;
  try {
    metadata = await (await openImage(data)).metadata();
  } catch (error) {
    const tooLarge = /pixel limit/i.test(String(error));
    throw new GatewayError(
      'upstream',
      tooLarge ? 'the upstream answered an image larger than the pixel limit' : 'the upstream answered bytes that are not an image',
      {
        retryable: true,
      },
    );
  }
  const mediaType = FORMAT_TYPES[metadata.format ?? ''] ?? image.mediaType ?? 'image/png';
  const delivered: DeliveredImage = { ...described, mediaType, width: metadata.width, height: metadata.height };
  if (!delivered.resolution && metadata.width && metadata.height) delivered.resolution = `${metadata.width}x${metadata.height}`;
  if (context.responseFormat === 'b64_json') {
    delivered.b64Json = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  } else {
    const name = await context.media.put(data, mediaType, context.owner);
    delivered.url = `${context.publicBaseUrl}/media/${name}`;
  }
  return delivered;
}
