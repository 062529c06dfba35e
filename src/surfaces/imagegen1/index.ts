/** The imagegen1 surface (the spec's Replicate-style family): asynchronous image generation tasks. */
import type { Surface } from '../types.js';
import { registerImagegen1Routes } from './routes.js';

export const imagegen1Surface: Surface = {
  name: 'imagegen1',
  register(app, services) {
    // Its own encapsulated context, so the `{title, detail, status}` error shape applies to these routes only.
    app.register(async (scope) => registerImagegen1Routes(scope, services));
  },
};

export { renderImagegen1Error } from './render-error.js';
export { renderImagegen1Record } from './render-record.js';
export { imagegen1TaskNotifier } from './task-notifier.js';
