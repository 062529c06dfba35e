/**
 * A video family's surface descriptor, derived from its data: the shared routes in its own
 * encapsulated context (so its error shape applies to its routes only), its error family when it
 * claims paths, and its task family (the lookup as the webhook body, its ids).
 */
import type { Surface } from '../types.js';
import { terminalNotifier } from './terminal-notifier.js';
import type { VideoFamily } from './video-family.js';
import { registerVideoFamilyRoutes } from './video-family-routes.js';

export function videoFamilySurface(family: VideoFamily): Surface {
  const { render, pathPrefixes } = family.errors;
  const surface: Surface = {
    name: family.name,
    register(app, services) {
      app.register(async (scope) => registerVideoFamilyRoutes(scope, services, family));
    },
    task: { notifier: terminalNotifier((task) => family.render(task)), newId: () => family.newId() },
  };
  if (pathPrefixes !== undefined) surface.errors = { pathPrefixes, render };
  return surface;
}
