/** The imagegen2 surface (the spec's Ideogram family): remix, edit and remix-image. */
import type { Surface } from '../types.js';
import { renderImagegen2Error } from './render-error.js';
import { registerImagegen2Routes } from './routes.js';

export const imagegen2Surface: Surface = {
  name: 'imagegen2',
  register(app, services) {
    // Its own encapsulated context, so the `{detail}` error shape applies to these routes only.
    app.register(async (scope) => registerImagegen2Routes(scope, services));
  },
  errors: { pathPrefixes: ['/imagegen2'], render: renderImagegen2Error },
};
