/**
 * A canonical task request → the proxy's submit route and body. Images travel as data URLs.
 * Only the fields listed here are sent: never the client's `notifyHook` or `state` (the gateway
 * delivers callbacks itself; forwarding them would hand the upstream's view to the client).
 */
import { GatewayError, invalidRequest } from '../../core/errors.js';
import type { ImageInput } from '../../core/image.js';
import type { TaskOperation, TaskRequest } from '../../core/task.js';

interface MjSubmit {
  /** Under `/mj`. */
  path: string;
  body: Record<string, unknown>;
}

/** What the proxy accepts for a blend. */
const MJ_BLEND_IMAGES = { min: 2, max: 5 };
/** Reference images an imagine may carry. */
const MJ_IMAGINE_MAX_IMAGES = 5;
const MAX_PROMPT_CHARS = 8192;
const MAX_CUSTOM_ID_CHARS = 256;

/** `parentUpstreamId`: the proxy's id of the task an action acts on. */
export function toMjSubmit(operation: TaskOperation, request: TaskRequest, parentUpstreamId?: string): MjSubmit {
  switch (operation) {
    case 'image.imagine': {
      const prompt = request.prompt?.trim();
      if (!prompt) throw invalidRequest('imagine needs a prompt', 'prompt');
      if (prompt.length > MAX_PROMPT_CHARS) throw invalidRequest(`the prompt is longer than ${MAX_PROMPT_CHARS} characters`, 'prompt');
      const images = request.images ?? [];
      if (images.length > MJ_IMAGINE_MAX_IMAGES) throw invalidRequest(`imagine takes at most ${MJ_IMAGINE_MAX_IMAGES} images`, 'base64Array');
      return { path: '/submit/imagine', body: images.length > 0 ? { prompt, base64Array: images.map(toDataUrl) } : { prompt } };
    }
    case 'image.blend': {
      const images = request.images ?? [];
      if (images.length < MJ_BLEND_IMAGES.min || images.length > MJ_BLEND_IMAGES.max) {
        throw invalidRequest(`blend takes ${MJ_BLEND_IMAGES.min} to ${MJ_BLEND_IMAGES.max} images, got ${images.length}`, 'base64Array');
      }
      return { path: '/submit/blend', body: { base64Array: images.map(toDataUrl), dimensions: request.dimensions ?? 'SQUARE' } };
    }
    case 'image.describe': {
      const images = request.images ?? [];
      if (images.length !== 1) throw invalidRequest(`describe takes exactly one image, got ${images.length}`, 'base64');
      return { path: '/submit/describe', body: { base64: toDataUrl(images[0]) } };
    }
    case 'image.action': {
      const customId = request.action?.customId;
      if (!customId || customId.length > MAX_CUSTOM_ID_CHARS) throw invalidRequest("an action needs the customId of one of the task's buttons", 'customId');
      if (!parentUpstreamId) throw invalidRequest('an action needs the task it acts on', 'taskId');
      return { path: '/submit/action', body: { taskId: parentUpstreamId, customId } };
    }
    default:
      throw new GatewayError('invalid_request', `the MJ proxy does not offer ${operation}`, { code: 'unsupported_operation' });
  }
}

function toDataUrl(image: ImageInput): string {
  return `data:${image.mediaType};base64,${Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength).toString('base64')}`;
}
