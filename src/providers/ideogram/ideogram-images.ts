/**
 * The image operations over Ideogram 3.0's synchronous multipart endpoints: generate, remix
 * (`image_weight` on Ideogram's 1–100 scale), edit (mask redrawn in Ideogram's black = edit
 * convention) and blend, which Ideogram has no endpoint for (see `blend`).
 */
import { loadSharp } from '../../media/load-sharp.js';
import { GatewayError } from '../../core/errors.js';
import type { ImageBlendRequest, ImageEditRequest, ImageGenerateRequest, ImageRemixRequest, ImageResult, ImageSize } from '../../core/image.js';
import type { Attempt, ImageProvider } from '../types.js';
import { fromIdeogramResponse } from './from-ideogram-response.js';
import { appendImageFile } from './ideogram-image-file.js';
import { postIdeogramForm } from './ideogram-upstream.js';
import { toIdeogramImageWeight } from './map-image-weight.js';
import { appendCommonFields, appendSizeFields } from './to-ideogram-fields.js';
import { toIdeogramMask, wholeImageMask } from './to-ideogram-mask.js';

const DEFAULT_BLEND_PROMPT = 'A blend of the reference images';

export function createIdeogramImages(): ImageProvider {
  return {
    async generate(request: ImageGenerateRequest, attempt: Attempt): Promise<ImageResult> {
      checkModel(attempt);
      const form = new FormData();
      form.append('prompt', request.prompt);
      appendCommonFields(form, request);
      appendSizeFields(form, request);
      return fromIdeogramResponse(await postIdeogramForm('generate', form, attempt));
    },

    async remix(request: ImageRemixRequest, attempt: Attempt): Promise<ImageResult> {
      checkModel(attempt);
      const form = new FormData();
      await appendImageFile(form, 'image', request.image, 'image');
      form.append('prompt', request.prompt);
      if (request.imageWeight !== undefined) form.append('image_weight', String(toIdeogramImageWeight(request.imageWeight)));
      appendCommonFields(form, request);
      appendSizeFields(form, request);
      return fromIdeogramResponse(await postIdeogramForm('remix', form, attempt));
    },

    async edit(request: ImageEditRequest, attempt: Attempt): Promise<ImageResult> {
      checkModel(attempt);
      const [image, ...references] = request.images;
      if (!image) throw new GatewayError('invalid_request', 'image: an image to edit is required', { param: 'image' });
      const size = await imageSize(image.data);
      // Ideogram's edit endpoint requires a mask; without one the whole image may change.
      const mask = request.mask ? await toIdeogramMask(request.mask, size) : await wholeImageMask(size);
      const form = new FormData();
      await appendImageFile(form, 'image', image, 'image');
      await appendImageFile(form, 'mask', mask, 'mask');
      form.append('prompt', request.prompt);
      // Further images steer the look of the edit, the closest Ideogram has to several inputs.
      for (const [i, reference] of references.entries()) await appendImageFile(form, 'style_reference_images', reference, `reference-${i + 1}`);
      appendCommonFields(form, request);
      return fromIdeogramResponse(await postIdeogramForm('edit', form, attempt));
    },

    /**
     * Ideogram has no blend endpoint. Its closest composition is `generate` with every image
     * as a style reference: all images weigh the same, where `remix` would keep the first
     * image's layout and treat the others as mere style.
     */
    async blend(request: ImageBlendRequest, attempt: Attempt): Promise<ImageResult> {
      checkModel(attempt);
      const form = new FormData();
      form.append('prompt', request.prompt?.trim() ? request.prompt : DEFAULT_BLEND_PROMPT);
      for (const [i, image] of request.images.entries()) await appendImageFile(form, 'style_reference_images', image, `reference-${i + 1}`);
      appendCommonFields(form, request);
      appendSizeFields(form, request);
      return fromIdeogramResponse(await postIdeogramForm('generate', form, attempt));
    },
  };
}

/** The 3.0 endpoints take no model field; a legacy model name must not silently get 3.0. */
function checkModel(attempt: Attempt): void {
  if (/^V_[12](?:_|A|$)/i.test(attempt.upstreamModel)) {
    throw new GatewayError(
      'invalid_request',
      `model ${attempt.upstreamModel} is served by Ideogram's legacy endpoints, which this gateway does not call; use Ideogram 3.0 (V_3)`,
      { param: 'model' },
    );
  }
}

async function imageSize(data: Uint8Array): Promise<ImageSize> {
  const { width, height } = await (await loadSharp())(data).metadata();
  if (!width || !height) throw new GatewayError('invalid_request', 'image: the image has no readable size', { param: 'image' });
  return { width, height };
}
