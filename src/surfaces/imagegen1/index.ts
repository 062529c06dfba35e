/**
 * The imagegen1 surface (the spec's Replicate-style family): asynchronous image generation tasks
 * answered in the shape of Replicate predictions — `POST /imagegen1/create` (201, `pending`),
 * `GET /imagegen1/task/:id` and `POST /imagegen1/task/:id/cancel`. `Prefer: wait` is not
 * honoured: results come by lookup or by the client's webhook, sent once the task finished
 * (Replicate's `completed` event).
 */
import { base32Id } from '../../core/ids.js';
import { taskNotFound } from '../shared/find-family-task.js';
import { taskFamilySurface } from '../shared/task-family-surface.js';
import { parseCreateRequest } from './parse-create-request.js';
import { imagegen1PresentedKey } from './presented-key.js';
import { renderImagegen1Error } from './render-error.js';
import { renderAcceptedRecord, renderImagegen1Record } from './render-record.js';

export const imagegen1Surface = taskFamilySurface({
  name: 'imagegen1',
  // Replicate-like prediction ids.
  newId: () => base32Id(),
  presentedKey: imagegen1PresentedKey,
  create: {
    '/imagegen1/create': (body, services, _signal, presented) =>
      parseCreateRequest(body, (url, param) => services.tasks.checkCallbackUrl(url, param), presented),
  },
  operation: 'image.generate',
  accepted: { status: 201, render: (task, baseUrl, mediaUrl) => renderAcceptedRecord(task, mediaUrl, baseUrl) },
  lookup: '/imagegen1/task/:id',
  cancel: { method: 'POST', path: '/imagegen1/task/:id/cancel' },
  notFound: taskNotFound('imagegen1 task'),
  render: (task, baseUrl, mediaUrl) => renderImagegen1Record(task, mediaUrl, baseUrl),
  errors: { render: renderImagegen1Error, pathPrefixes: ['/imagegen1'] },
});
