/**
 * The videogen3 surface (the spec's third video family): Luma-style video generations —
 * `POST /videogen3/generate` (201 `queued`) and `GET /videogen3/task/:id` (free, as every task
 * lookup is), with Luma's `{detail}` errors.
 */
import { paramTable } from '../shared/rename-canonical-param.js';
import { taskFamilySurface } from '../shared/task-family-surface.js';
import { videoFamily } from '../shared/video-family.js';
import { parseVideogen3Create } from './parse-create-request.js';
import { renderVideogen3Error } from './render-error.js';
import { renderVideogen3Accepted, renderVideogen3Generation } from './render-generation.js';

export const videogen3Surface = taskFamilySurface({
  ...videoFamily('videogen3'),
  create: { '/videogen3/generate': parseVideogen3Create },
  lookup: '/videogen3/task/:id',
  paramNames: paramTable({ seconds: 'duration', aspectRatio: 'aspect_ratio', images: 'keyframes', imageRoles: 'keyframes' }),
  accepted: { status: 201, render: renderVideogen3Accepted },
  render: renderVideogen3Generation,
  errors: { render: renderVideogen3Error, pathPrefixes: ['/videogen3'] },
});
