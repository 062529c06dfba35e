import { DEFAULT_IMAGE_LIMITS } from '../../src/core/image-bytes.js';
import type { GatewayServices } from '../../src/surfaces/types.js';

function unused(name: string): () => never {
  return () => {
    throw new Error(`${name} is not used by this test`);
  };
}

/** Stand-ins for the services a surface test does not exercise (and the default image limits); spread them into a stub. */
export const unusedServices: Pick<GatewayServices, 'embed' | 'images' | 'fetchImage' | 'imageLimits'> = {
  imageLimits: DEFAULT_IMAGE_LIMITS,
  embed: unused('embed'),
  images: unused('images'),
  fetchImage: unused('fetchImage'),
};
