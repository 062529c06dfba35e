/** The OpenAI videos surface (beyond the spec: the `openai` SDK's `client.videos` unchanged), for video tasks of every family. */
import { base32Id } from '../../core/ids.js';
import type { Surface } from '../types.js';
import { registerOpenAIVideosRoutes } from './routes.js';
import { openaiVideosTaskNotifier } from './task-notifier.js';

export const openaiVideosSurface: Surface = {
  name: 'openai-videos',
  register(app, services) {
    // Its own encapsulated context: the OpenAI error shape and multipart parsing apply to these routes only.
    app.register(async (scope) => registerOpenAIVideosRoutes(scope, services));
  },
  task: { notifier: openaiVideosTaskNotifier, newId: () => `video_${base32Id()}` },
};
