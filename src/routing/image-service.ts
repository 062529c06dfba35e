/** Runs one image operation through the shared attempt loop and delivers the images. */
import type { DeliveredImages, ImageInput } from '../core/image.js';
import { toImageInput } from '../core/image-bytes.js';
import type { MediaSettings } from '../config/types.js';
import { guardedFetch } from '../media/guarded-fetch.js';
import type { MediaStore } from '../media/media-store.js';
import type { ImageProvider } from '../providers/types.js';
import type { ImageCall, ImagesOutcome, RouteInfo } from '../surfaces/types.js';
import { deliverImages } from './deliver-images.js';
import { recordUsage } from './record-usage.js';
import { modelNotFound, runAttempts, type RouterDeps } from './run-attempts.js';

const METHOD = {
  'image.generate': 'generate',
  'image.edit': 'edit',
  'image.remix': 'remix',
  'image.blend': 'blend',
} as const satisfies Record<ImageCall['operation'], keyof ImageProvider>;

export class ImageService {
  constructor(
    private readonly deps: RouterDeps,
    private readonly media: MediaStore,
    private readonly settings: MediaSettings,
  ) {}

  async images(call: ImageCall): Promise<ImagesOutcome> {
    const startedAt = performance.now();
    const metered = {
      key: call.key,
      surface: call.surface,
      requestId: call.requestId,
      model: call.request.model,
      operation: call.operation,
      stream: false,
      signal: call.signal,
    };
    const outcome = await runAttempts(this.deps, metered, startedAt, async (channel, attempt, route) => {
      const run = channel.provider.images?.[METHOD[call.operation]] as
        | ((request: ImageCall['request'], a: typeof attempt) => ReturnType<NonNullable<ImageProvider['generate']>>)
        | undefined;
      if (!run) throw modelNotFound(call.request.model);
      const produced = await run.call(channel.provider.images, call.request, attempt);
      const result: DeliveredImages = await deliverImages(produced, {
        media: this.media,
        responseFormat: call.request.responseFormat,
        publicBaseUrl: this.settings.publicBaseUrl ?? call.publicBaseUrl,
        signal: call.signal,
        maxBytes: this.settings.maxImageBytes,
        timeoutMs: this.settings.fetchTimeoutMs,
      });
      return { result, route } satisfies { result: DeliveredImages; route: RouteInfo };
    });
    recordUsage(this.deps.recorder, this.deps.catalog, metered, outcome.route, startedAt, 'ok', undefined, outcome.result.images.length);
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
