/**
 * The canonical edit request → the multipart form OpenAI's `/images/edits` takes: one `image`
 * part, or repeated `image[]` parts for several images (as openai-node sends them), `mask`,
 * and the other fields as text.
 */
import type { ImageEditRequest, ImageInput } from '../../../core/image.js';
import { openAIImageOptionFields } from './openai-image-options.js';
import { openAIImageSize, takesResponseFormat } from './openai-image-size.js';

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp', 'image/gif': 'gif' };

function filePart(image: ImageInput, fallbackName: string): [Blob, string] {
  const name = image.filename ?? `${fallbackName}.${EXTENSIONS[image.mediaType] ?? 'png'}`;
  return [new Blob([image.data], { type: image.mediaType }), name];
}

export function toOpenAIImageEditForm(request: ImageEditRequest, upstreamModel: string): FormData {
  const form = new FormData();
  form.append('model', upstreamModel);
  form.append('prompt', request.prompt);
  const field = request.images.length === 1 ? 'image' : 'image[]';
  request.images.forEach((image, i) => form.append(field, ...filePart(image, `image-${i + 1}`)));
  if (request.mask) form.append('mask', ...filePart(request.mask, 'mask'));
  form.append('n', String(request.n));
  const size = openAIImageSize(request);
  if (size) form.append('size', size);
  if (takesResponseFormat(upstreamModel)) form.append('response_format', 'b64_json');
  for (const [name, value] of Object.entries(openAIImageOptionFields(request.options, 'edit'))) form.append(name, String(value));
  return form;
}

/** A form as bytes and the content type (with its boundary) to send them with. */
export async function serializeForm(form: FormData): Promise<{ body: Uint8Array; contentType: string }> {
  const response = new Response(form);
  const contentType = response.headers.get('content-type') ?? 'multipart/form-data';
  return { body: new Uint8Array(await response.arrayBuffer()), contentType };
}
