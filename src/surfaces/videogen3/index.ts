/** The videogen3 surface (the spec's third video family): Luma-style video generations. */
import type { Surface } from '../types.js';
import { registerVideogen3Routes } from './routes.js';

export const videogen3Surface: Surface = {
  name: 'videogen3',
  register(app, services) {
    // Its own encapsulated context, so the `{detail}` error shape applies to these routes only.
    app.register(async (scope) => registerVideogen3Routes(scope, services));
  },
};

export { renderVideogen3Error } from './render-error.js';
export { renderVideogen3Generation } from './render-generation.js';
export { videogen3TaskNotifier } from './task-notifier.js';
