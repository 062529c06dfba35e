/**
 * The videogen2 surface (the spec's second video family): asynchronous text- and image-to-video
 * tasks — `POST /videogen2/video` (answers `submitted`), `GET /videogen2/video/:id` and
 * `DELETE /videogen2/video/:id` (beyond the spec, as Ark cancels).
 */
import { paramTable } from '../shared/rename-canonical-param.js';
import { taskFamilySurface } from '../shared/task-family-surface.js';
import { videoFamily } from '../shared/video-family.js';
import { parseVideogen2Create } from './parse-create-request.js';
import { renderVideogen2Error } from './render-error.js';
import { renderVideogen2Accepted, renderVideogen2Task } from './render-record.js';

export const videogen2Surface = taskFamilySurface({
  ...videoFamily('videogen2'),
  create: { '/videogen2/video': parseVideogen2Create },
  lookup: '/videogen2/video/:id',
  cancel: { method: 'DELETE', path: '/videogen2/video/:id' },
  paramNames: paramTable({ seconds: 'duration', aspectRatio: 'aspect_ratio', images: 'image_url', imageRoles: 'image_url' }),
  accepted: { render: renderVideogen2Accepted },
  render: renderVideogen2Task,
  errors: { render: renderVideogen2Error },
});
