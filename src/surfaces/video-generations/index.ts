/** The `/v1/video/generations` surface (the spec's Ark-style video endpoint): video tasks from text and reference images. */
import type { Surface } from '../types.js';
import { registerVideoGenerationsRoutes } from './routes.js';

export const videoGenerationsSurface: Surface = {
  name: 'video-generations',
  register(app, services) {
    // Its own encapsulated context, so its authentication hook applies to these routes only.
    app.register(async (scope) => registerVideoGenerationsRoutes(scope, services));
  },
};

export { renderVideoGenerationsTask } from './render-record.js';
export { videoGenerationsTaskNotifier } from './task-notifier.js';
