/** The videogen2 surface (the spec's second video family): asynchronous text- and image-to-video tasks. */
import type { Surface } from '../types.js';
import { registerVideogen2Routes } from './routes.js';

export const videogen2Surface: Surface = {
  name: 'videogen2',
  register(app, services) {
    // Its own encapsulated context, so its error renderer applies to these routes only.
    app.register(async (scope) => registerVideogen2Routes(scope, services));
  },
};

export { renderVideogen2Error } from './render-error.js';
export { renderVideogen2Task } from './render-record.js';
export { videogen2TaskNotifier } from './task-notifier.js';
