/** The videogen1 surface (the spec's first video family): asynchronous text-to-video tasks in a `{code, message, data}` envelope. */
import type { Surface } from '../types.js';
import { registerVideogen1Routes } from './routes.js';

export const videogen1Surface: Surface = {
  name: 'videogen1',
  register(app, services) {
    // Its own encapsulated context, so the `{code, message, data}` error shape applies to these routes only.
    app.register(async (scope) => registerVideogen1Routes(scope, services));
  },
};

export { renderVideogen1Error } from './render-error.js';
export { renderVideogen1Task } from './render-record.js';
export { videogen1TaskNotifier } from './task-notifier.js';
