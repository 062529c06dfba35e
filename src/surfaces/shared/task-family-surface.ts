/**
 * A task family's surface descriptor, derived from its data: the shared routes in its own
 * encapsulated context (one per mount, so its error shape applies to its routes only), its
 * error family when it claims paths, and its task family (its ids, and the lookup's rendering
 * as the webhook body, once finished or on every change).
 */
import type { FastifyInstance } from 'fastify';
import type { Task, TaskNotifier } from '../../core/task.js';
import type { Surface } from '../types.js';
import type { TaskFamilyDefinition } from './task-family.js';
import { registerTaskFamilyRoutes } from './task-family-routes.js';
import { terminalNotifier } from './terminal-notifier.js';

export function taskFamilySurface(family: TaskFamilyDefinition): Surface {
  const { render, pathPrefixes } = family.errors;
  const show = (task: Task, mediaUrl: (mediaId: string) => string) => family.render(task, undefined, mediaUrl);
  const notifier: TaskNotifier = family.webhook === 'every change' ? (task, mediaUrl) => JSON.stringify(show(task, mediaUrl)) : terminalNotifier(show);
  const surface: Surface = {
    name: family.name,
    register(app, services) {
      const routes = async (scope: FastifyInstance) => registerTaskFamilyRoutes(scope, services, family);
      if (family.mounts === undefined) app.register(routes);
      else for (const prefix of family.mounts) app.register(routes, { prefix });
    },
    task: { notifier, newId: () => family.newId() },
  };
  if (pathPrefixes !== undefined) surface.errors = { pathPrefixes, render };
  return surface;
}
