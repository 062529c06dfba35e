/**
 * A canonical `video.generate` request → the body of Ark's create-task call:
 * `{model, content:[{type:'text', text:'<prompt> --resolution … --ratio … --duration … --seed …'},
 * {type:'image_url', image_url:{url}, role}…], callback_url?}`.
 */
import { GatewayError } from '../../core/errors.js';
import type { TaskRequest } from '../../core/task.js';
import { type ArkImageItem, arkImageItems } from './ark-image-content.js';
import { arkModelFor } from './ark-models.js';
import { arkPromptText } from './ark-prompt-text.js';
import { arkVideoFlags } from './ark-video-params.js';

interface ArkTaskBody {
  model: string;
  content: Array<{ type: 'text'; text: string } | ArkImageItem>;
  callback_url?: string;
}

export function toArkTaskBody(request: TaskRequest, upstreamModel: string, callbackUrl?: string): ArkTaskBody {
  const images = arkImageItems(request.images, request.imageRoles);
  if (images.length === 0 && !request.prompt?.trim()) {
    throw new GatewayError('invalid_request', 'a video needs a prompt or an image', { param: 'prompt' });
  }
  const model = arkModelFor(upstreamModel, images.length > 0);
  const flags = arkVideoFlags(
    request,
    model,
    images.some((image) => image.role === 'reference_image'),
  );
  const text = arkPromptText(request.prompt, flags);
  return {
    model,
    content: [...(text ? [{ type: 'text' as const, text }] : []), ...images],
    ...(callbackUrl ? { callback_url: callbackUrl } : {}),
  };
}
