import type { Surface } from '../types.js';
import { registerAnthropicRoutes } from './routes.js';

export { parseAnthropicMessagesRequest } from './parse-messages-request.js';
export { renderAnthropicError } from './render-error.js';
export { renderAnthropicModelList } from './render-model-list.js';
export { renderAnthropicMessagesResponse } from './render-messages-response.js';
export { renderAnthropicMessagesStream } from './render-messages-stream.js';

/** Anthropic's Messages dialect (`/v1/messages`); `/v1/models` is dispatched by the app. */
export const anthropicSurface: Surface = {
  name: 'anthropic',
  register(app, services) {
    app.register(async (scope) => registerAnthropicRoutes(scope, services));
  },
};
