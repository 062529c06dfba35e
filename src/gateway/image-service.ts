/** Runs one image operation through the shared attempt loop and delivers the images. */
import type { MediaSettings } from '../config/types.js';
import type { DeliveredImages, ImageInput } from '../core/image.js';
import { toImageInput } from '../core/image-bytes.js';
import { withFields } from '../core/with-fields.js';
import { deliverImages } from '../media/deliver-images.js';
import { guardedFetch } from '../media/guarded-fetch.js';
import { expectedImageBytes } from '../media/expected-image-bytes.js';
import { type MediaStore, mediaOwner } from '../media/media-store.js';
import { fetchUpstreamMedia } from '../providers/shared/fetch-upstream-media.js';
import type { ImageProvider } from '../providers/types.js';
import { type CallLifecycle, modelNotFound } from './call-lifecycle.js';
import type { ImageCall, ImagesOutcome } from './contract.js';

const METHOD = {
  'image.generate': 'generate',
  'image.edit': 'edit',
  'image.remix': 'remix',
  'image.blend': 'blend',
} as const satisfies Record<ImageCall['operation'], keyof ImageProvider>;

export class ImageService {
  constructor(
    private readonly lifecycle: CallLifecycle,
    private readonly media: MediaStore,
    private readonly settings: MediaSettings,
  ) {}

  async images(imageCall: ImageCall): Promise<ImagesOutcome> {
    const { settings } = this;
    // An image call's budget reservation is its images at the per-unit price; it counts no tokens.
    const estimate = { outputCap: () => 0, units: 'n' in imageCall.request ? imageCall.request.n : 1 };
    const call = await this.lifecycle.admit(withFields(imageCall, { model: imageCall.request.model, stream: false, estimate }));
    const owner = mediaOwner(imageCall.key.accountId, imageCall.key.id);
    if (imageCall.request.responseFormat !== 'b64_json') {
      // Refused before the upstream runs when the images, at their largest, would not fit.
      await this.media.checkRoom(owner, expectedImageBytes(imageCall.request, settings.maxImageBytes)).catch((error: unknown) => {
        void call.fail(error);
        throw error;
      });
    }
    const outcome = await call.attempt(async (channel, attempt, route): Promise<ImagesOutcome> => {
      const run = channel.provider.images?.[METHOD[imageCall.operation]] as
        | ((request: ImageCall['request'], a: typeof attempt) => ReturnType<NonNullable<ImageProvider['generate']>>)
        | undefined;
      if (!run) throw modelNotFound(imageCall.request.model);
      const produced = await run.call(channel.provider.images, imageCall.request, attempt);
      const result: DeliveredImages = await deliverImages(produced, {
        media: this.media,
        responseFormat: imageCall.request.responseFormat,
        publicBaseUrl: settings.publicBaseUrl ?? imageCall.publicBaseUrl,
        owner,
        download: async (url) =>
          (
            await fetchUpstreamMedia(url, {
              signal: imageCall.signal,
              maxBytes: settings.maxImageBytes,
              timeoutMs: settings.fetchTimeoutMs,
              allowPrivate: settings.allowPrivateUrls,
              upstreamBaseUrl: channel.config.baseUrl,
            })
          ).data,
      });
      return { result, route };
    });
    await call.settle(undefined, outcome.result.images.length);
    return outcome;
  }
  /** A client-supplied image URL, fetched with the SSRF guards and checked to be an image. */
  async fetchImage(url: string, param: string, signal: AbortSignal): Promise<ImageInput> {
    const fetched = await guardedFetch(url, {
      allowPrivate: this.settings.allowPrivateUrls,
      maxBytes: this.settings.maxImageBytes,
      timeoutMs: this.settings.fetchTimeoutMs,
      param,
      signal,
    });
    const filename = new URL(fetched.finalUrl).pathname.split('/').pop() || undefined;
    return toImageInput(fetched.data, param, { filename, maxBytes: this.settings.maxImageBytes, maxPixels: this.settings.maxImagePixels });
  }
}
