/** The OpenAI dialect surface: chat completions, plus renderers the model-list dispatcher uses. */
import type { Surface } from '../types.js';
import { registerOpenAIRoutes } from './routes.js';

export const openaiSurface: Surface = {
  name: 'openai',
  register(app, services) {
    // Its own encapsulated context, so the OpenAI error shape applies to these routes only.
    app.register(async (scope) => registerOpenAIRoutes(scope, services));
  },
};

export { parseOpenAIChatRequest } from './parse-chat-request.js';
export { renderOpenAIChatResponse } from './render-chat-response.js';
export { renderOpenAIChatStream } from './render-chat-stream.js';
export { renderOpenAIError, toOpenAIErrorObject } from './render-error.js';
export { renderOpenAIModel, renderOpenAIModelList } from './render-model-list.js';
