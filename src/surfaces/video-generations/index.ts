/** The `/v1/video/generations` surface (the spec's Ark-style video endpoint): video tasks from text and reference images. */
import { base32Id } from '../../core/ids.js';
import type { Surface } from '../types.js';
import { registerVideoGenerationsRoutes } from './routes.js';
import { videoGenerationsTaskNotifier } from './task-notifier.js';

export const videoGenerationsSurface: Surface = {
  name: 'video-generations',
  register(app, services) {
    // Its own encapsulated context, so its authentication hook applies to these routes only.
    app.register(async (scope) => registerVideoGenerationsRoutes(scope, services));
  },
  task: { notifier: videoGenerationsTaskNotifier, newId: () => `task_${base32Id()}` },
};
