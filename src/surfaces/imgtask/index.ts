/** The imgtask surface (the spec's image-task family, Midjourney-proxy style), under `/imgtask` and `/mj`. */
import { digitsId } from '../../core/ids.js';
import type { Surface } from '../types.js';
import { renderImgtaskError } from './render-error.js';
import { imgtaskTaskNotifier } from './render-task-record.js';
import { registerImgtaskRoutes } from './routes.js';

const IMGTASK_PREFIXES = ['/imgtask', '/mj'];

export const imgtaskSurface: Surface = {
  name: 'imgtask',
  register(app, services) {
    for (const prefix of IMGTASK_PREFIXES) app.register(async (scope) => registerImgtaskRoutes(scope, services), { prefix });
  },
  errors: { pathPrefixes: IMGTASK_PREFIXES, render: renderImgtaskError },
  // 19 digits, like the MJ proxy's ids.
  task: { notifier: imgtaskTaskNotifier, newId: digitsId },
};
