/**
 * The Responses surface (OpenAI's `/v1/responses`): the Responses API on every upstream, through
 * the canonical chat form, with the conversation state kept by the gateway. Its paths need no
 * error family of their own: OpenAI's shape is the fallback's.
 */
import type { Surface } from '../types.js';
import { registerResponsesRoutes } from './routes.js';

export const responsesSurface: Surface = {
  name: 'responses',
  register(app, services) {
    // Its own encapsulated context, so its key check and error shape apply to these routes only.
    app.register(async (scope) => registerResponsesRoutes(scope, services));
  },
};
