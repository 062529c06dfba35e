/** The videogen3 surface (the spec's third video family): Luma-style video generations. */
import { base32Id } from '../../core/ids.js';
import type { Surface } from '../types.js';
import { renderVideogen3Error } from './render-error.js';
import { registerVideogen3Routes } from './routes.js';
import { videogen3TaskNotifier } from './task-notifier.js';

export const videogen3Surface: Surface = {
  name: 'videogen3',
  register(app, services) {
    // Its own encapsulated context, so the `{detail}` error shape applies to these routes only.
    app.register(async (scope) => registerVideogen3Routes(scope, services));
  },
  errors: { pathPrefixes: ['/videogen3'], render: renderVideogen3Error },
  task: { notifier: videogen3TaskNotifier, newId: () => `task_${base32Id()}` },
};
