/**
 * The videogen3 surface (the spec's third video family): Luma-style video generations —
 * `POST /videogen3/generate` (201 `queued`) and `GET /videogen3/task/:id` (free, as every task
 * lookup is), with Luma's `{detail}` errors.
 */
import { base32Id } from '../../core/ids.js';
import { paramTable } from '../shared/rename-canonical-param.js';
import { taskNotFound } from '../shared/find-family-task.js';
import { taskFamilySurface } from '../shared/task-family-surface.js';
import { parseVideogen3Create } from './parse-create-request.js';
import { renderVideogen3Error } from './render-error.js';
import { renderVideogen3Accepted, renderVideogen3Generation } from './render-generation.js';

export const videogen3Surface = taskFamilySurface({
  name: 'videogen3',
  newId: () => `task_${base32Id()}`,
  create: { '/videogen3/generate': parseVideogen3Create },
  operation: 'video.generate',
  lookup: '/videogen3/task/:id',
  notFound: taskNotFound('video task'),
  paramNames: paramTable({ seconds: 'duration', aspectRatio: 'aspect_ratio', images: 'keyframes', imageRoles: 'keyframes' }),
  accepted: { status: 201, render: renderVideogen3Accepted },
  render: renderVideogen3Generation,
  errors: { render: renderVideogen3Error, pathPrefixes: ['/videogen3'] },
});
