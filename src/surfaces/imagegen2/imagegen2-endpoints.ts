/**
 * The imagegen2 endpoints, by path: each parses its body into the canonical request of one
 * image operation. A new endpoint is one more entry.
 */
import type { ImageCall } from '../../gateway/contract.js';
import type { ImageLoader } from './load-image-value.js';
import { parseEditRequest } from './parse-edit-request.js';
import { parseRemixImageRequest } from './parse-remix-image-request.js';
import { parseRemixRequest } from './parse-remix-request.js';

/** An operation with its request, one member of ImageCall's union each. */
type ParsedImageCall = ImageCall extends infer C ? (C extends ImageCall ? Pick<C, 'operation' | 'request'> : never) : never;

export type Imagegen2Endpoint = (body: unknown, loadImage: ImageLoader) => Promise<ParsedImageCall>;

export const imagegen2Endpoints: Record<string, Imagegen2Endpoint> = {
  '/imagegen2/remix': async (body, load) => ({ operation: 'image.remix', request: await parseRemixRequest(body, load) }),
  '/imagegen2/edit': async (body, load) => ({ operation: 'image.edit', request: await parseEditRequest(body, load) }),
  '/imagegen2/remix-image': async (body, load) => ({ operation: 'image.blend', request: await parseRemixImageRequest(body, load) }),
};
