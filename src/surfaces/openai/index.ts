/** The OpenAI dialect surface: chat completions, plus renderers the model-list dispatcher uses. */
import type { Surface } from '../types.js';
import { renderOpenAIError } from './render-error.js';
import { registerOpenAIRoutes } from './routes.js';

export const openaiSurface: Surface = {
  name: 'openai',
  register(app, services) {
    // Its own encapsulated context, so the OpenAI error shape applies to these routes only.
    app.register(async (scope) => registerOpenAIRoutes(scope, services));
  },
  // The fallback family (registry.ts): every path no other family claims.
  errors: { pathPrefixes: [], render: renderOpenAIError },
};
