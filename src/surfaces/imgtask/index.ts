/** The imgtask surface (the spec's image-task family, Midjourney-proxy style), under `/imgtask` and `/mj`. */
import type { Surface } from '../types.js';
import { registerImgtaskRoutes } from './routes.js';

export const IMGTASK_PREFIXES = ['/imgtask', '/mj'] as const;

export const imgtaskSurface: Surface = {
  name: 'imgtask',
  register(app, services) {
    for (const prefix of IMGTASK_PREFIXES) app.register(async (scope) => registerImgtaskRoutes(scope, services), { prefix });
  },
};

export { renderImgtaskError } from './render-error.js';
export { imgtaskTaskNotifier } from './render-task-record.js';
