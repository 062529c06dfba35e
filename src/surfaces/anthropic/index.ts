import type { Surface } from '../types.js';
import { renderAnthropicError } from './render-error.js';
import { registerAnthropicRoutes } from './routes.js';

/** Anthropic's Messages dialect (`/v1/messages`); `/v1/models` is the shared model routes'. */
export const anthropicSurface: Surface = {
  name: 'anthropic',
  register(app, services) {
    app.register(async (scope) => registerAnthropicRoutes(scope, services));
  },
  errors: { pathPrefixes: ['/v1/messages'], render: renderAnthropicError },
};
