/**
 * Images as Ideogram accepts them in a multipart body: JPEG, PNG or WebP files. Anything else
 * the gateway took in (GIF, AVIF, TIFF…) is re-encoded as PNG first.
 */
import { loadSharp } from '../../media/load-sharp.js';
import type { ImageInput } from '../../core/image.js';

const ACCEPTED: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

export async function appendImageFile(form: FormData, field: string, image: ImageInput, name: string): Promise<void> {
  const accepted = ACCEPTED[image.mediaType.toLowerCase()] !== undefined ? image : await reencodeAsPng(image);
  const extension = ACCEPTED[accepted.mediaType.toLowerCase()];
  form.append(field, new Blob([accepted.data], { type: accepted.mediaType }), `${name}.${extension}`);
}

async function reencodeAsPng(image: ImageInput): Promise<ImageInput> {
  const png = await (await loadSharp())(image.data).png().toBuffer();
  return { data: new Uint8Array(png.buffer, png.byteOffset, png.byteLength), mediaType: 'image/png' };
}
