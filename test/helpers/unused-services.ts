import { DEFAULT_IMAGE_LIMITS } from '../../src/core/image-bytes.js';
import type { GatewayServices } from '../../src/gateway/contract.js';

function unused(name: string): () => never {
  return () => {
    throw new Error(`${name} is not used by this test`);
  };
}

/**
 * Stand-ins for the services a surface test does not exercise; spread them into a stub.
 * `checkAccess` lets every key use every model (access rules are the gateway's, tested there).
 */
export const unusedServices: Pick<GatewayServices, 'embed' | 'images' | 'fetchImage' | 'checkAccess' | 'imageLimits' | 'tasks' | 'background' | 'responses'> = {
  imageLimits: DEFAULT_IMAGE_LIMITS,
  tasks: {
    submit: unused('tasks.submit'),
    get: unused('tasks.get'),
    list: unused('tasks.list'),
    cancel: unused('tasks.cancel'),
    checkCallbackUrl: unused('tasks.checkCallbackUrl'),
    mediaUrl: unused('tasks.mediaUrl'),
    openResult: unused('tasks.openResult'),
    page: unused('tasks.page'),
    remove: unused('tasks.remove'),
  },
  background: {
    create: unused('background.create'),
    get: unused('background.get'),
    cancel: unused('background.cancel'),
    follow: unused('background.follow'),
    serve: () => undefined,
  },
  responses: {
    get: unused('responses.get'),
    conversation: unused('responses.conversation'),
    items: unused('responses.items'),
    mayStore: unused('responses.mayStore'),
    save: unused('responses.save'),
    remove: unused('responses.remove'),
    seal: unused('responses.seal'),
    open: unused('responses.open'),
  },
  embed: unused('embed'),
  images: unused('images'),
  fetchImage: unused('fetchImage'),
  checkAccess: () => undefined,
};
