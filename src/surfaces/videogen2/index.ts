/**
 * The videogen2 surface (the spec's second video family): asynchronous text- and image-to-video
 * tasks — `POST /videogen2/video` (answers `submitted`), `GET /videogen2/video/:id` and
 * `DELETE /videogen2/video/:id` (beyond the spec, as Ark cancels).
 */
import { base32Id } from '../../core/ids.js';
import { paramTable } from '../shared/rename-canonical-param.js';
import { videoFamilySurface } from '../shared/video-family-surface.js';
import { parseVideogen2Create } from './parse-create-request.js';
import { renderVideogen2Error } from './render-error.js';
import { renderVideogen2Accepted, renderVideogen2Task } from './render-record.js';

export const videogen2Surface = videoFamilySurface({
  name: 'videogen2',
  newId: () => `task_${base32Id()}`,
  paths: { create: '/videogen2/video', lookup: '/videogen2/video/:id', cancel: '/videogen2/video/:id' },
  parse: parseVideogen2Create,
  paramNames: paramTable({ seconds: 'duration', aspectRatio: 'aspect_ratio', images: 'image_url', imageRoles: 'image_url' }),
  accepted: { render: renderVideogen2Accepted },
  render: renderVideogen2Task,
  errors: { render: renderVideogen2Error },
});
