/** The videogen1 surface (the spec's first video family): asynchronous text-to-video tasks in a `{code, message, data}` envelope. */
import { base32Id } from '../../core/ids.js';
import type { Surface } from '../types.js';
import { renderVideogen1Error } from './render-error.js';
import { registerVideogen1Routes } from './routes.js';
import { videogen1TaskNotifier } from './task-notifier.js';

export const videogen1Surface: Surface = {
  name: 'videogen1',
  register(app, services) {
    // Its own encapsulated context, so the `{code, message, data}` error shape applies to these routes only.
    app.register(async (scope) => registerVideogen1Routes(scope, services));
  },
  errors: { pathPrefixes: ['/videogen1'], render: renderVideogen1Error },
  task: { notifier: videogen1TaskNotifier, newId: () => `task_${base32Id()}` },
};
