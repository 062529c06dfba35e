/** The imagegen1 surface (the spec's Replicate-style family): asynchronous image generation tasks. */
import { base32Id } from '../../core/ids.js';
import type { Surface } from '../types.js';
import { renderImagegen1Error } from './render-error.js';
import { registerImagegen1Routes } from './routes.js';
import { imagegen1TaskNotifier } from './task-notifier.js';

export const imagegen1Surface: Surface = {
  name: 'imagegen1',
  register(app, services) {
    // Its own encapsulated context, so the `{title, detail, status}` error shape applies to these routes only.
    app.register(async (scope) => registerImagegen1Routes(scope, services));
  },
  errors: { pathPrefixes: ['/imagegen1'], render: renderImagegen1Error },
  // Replicate-like prediction ids.
  task: { notifier: imagegen1TaskNotifier, newId: () => base32Id() },
};
