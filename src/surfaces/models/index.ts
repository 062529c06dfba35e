/** The shared model routes (`GET /v1/models`, `/v1/models/:model`), answering in the caller's dialect. */
import type { Surface } from '../types.js';
import { registerSharedModelRoutes } from './shared-model-routes.js';

export const sharedModelsSurface: Surface = {
  name: 'models',
  register: registerSharedModelRoutes,
};
