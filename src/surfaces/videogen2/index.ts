/** The videogen2 surface (the spec's second video family): asynchronous text- and image-to-video tasks. */
import { base32Id } from '../../core/ids.js';
import type { Surface } from '../types.js';
import { registerVideogen2Routes } from './routes.js';
import { videogen2TaskNotifier } from './task-notifier.js';

export const videogen2Surface: Surface = {
  name: 'videogen2',
  register(app, services) {
    // Its own encapsulated context, so its error renderer applies to these routes only.
    app.register(async (scope) => registerVideogen2Routes(scope, services));
  },
  task: { notifier: videogen2TaskNotifier, newId: () => `task_${base32Id()}` },
};
