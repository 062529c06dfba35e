/**
 * The videogen1 surface (the spec's first video family): asynchronous text-to-video tasks in a
 * `{code, message, data}` envelope — `POST /videogen1/video` (answers `pending`) and
 * `GET /videogen1/video/:id`, with videogen1's own error codes.
 */
import { paramTable } from '../shared/rename-canonical-param.js';
import { taskFamilySurface } from '../shared/task-family-surface.js';
import { videoFamily } from '../shared/video-family.js';
import { parseVideogen1Create } from './parse-create-request.js';
import { renderVideogen1Error } from './render-error.js';
import { renderVideogen1Accepted, renderVideogen1Task } from './render-record.js';

export const videogen1Surface = taskFamilySurface({
  ...videoFamily('videogen1'),
  create: { '/videogen1/video': (body, services) => parseVideogen1Create(body, (url, param) => services.tasks.checkCallbackUrl(url, param)) },
  lookup: '/videogen1/video/:id',
  paramNames: paramTable({ seconds: 'duration', aspectRatio: 'aspect_ratio' }),
  accepted: { render: renderVideogen1Accepted },
  render: renderVideogen1Task,
  errors: { render: renderVideogen1Error, pathPrefixes: ['/videogen1'] },
});
