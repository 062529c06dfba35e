/** The `gemini` surface: Google's Generative Language API dialect. */
import type { Surface } from '../types.js';
import { authenticateFirst } from '../../http/authenticate-first.js';
import { useErrorRenderer } from '../../http/reply-helpers.js';
import { geminiApiKey } from './gemini-api-key.js';
import { isGeminiRequest } from './routes.js';
import { renderGeminiError } from './render-error.js';
import { registerGeminiRoutes } from './routes.js';

export const geminiSurface: Surface = {
  name: 'gemini',
  async register(app, services) {
    await app.register(async (scope) => {
      useErrorRenderer(scope, renderGeminiError);
      authenticateFirst(scope, (presented) => services.authenticate(presented), geminiApiKey, isGeminiRequest);
      registerGeminiRoutes(scope, services);
    });
  },
  // `/v1/models/{model}:{action}` is Gemini's too: error-family.ts knows the shared model paths.
  errors: { pathPrefixes: ['/v1beta'], render: renderGeminiError },
};
