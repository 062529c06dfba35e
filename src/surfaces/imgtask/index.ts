/**
 * The imgtask surface (the spec's image-task family, Midjourney-proxy style), the same under
 * `/imgtask/…` (the spec's paths) and `/mj/…` (so MJ-proxy clients work by changing only their
 * base URL): submit imagine, blend, describe and action, and fetch, over the shared task-family
 * routes; image-seed, list-by-condition and cancel in `routes.ts`. The webhook (the client's
 * notifyHook) gets the task record on every change, as the MJ proxy sends it.
 */
import { GatewayError } from '../../core/errors.js';
import { digitsId } from '../../core/ids.js';
import { taskFamilySurface } from '../shared/task-family-surface.js';
import { parseAction, parseBlend, parseDescribe, parseImagine } from './parse-submit.js';
import { imgtaskPresentedKey } from './presented-key.js';
import { renderSubmitted } from './render-answer.js';
import { renderImgtaskError } from './render-error.js';
import { renderImgtaskRecord } from './render-task-record.js';
import { registerImgtaskRoutes } from './routes.js';
import { submitParser } from './submit-parser.js';

const IMGTASK_PREFIXES = ['/imgtask', '/mj'];

export const imgtaskSurface = taskFamilySurface({
  name: 'imgtask',
  // 19 digits, like the MJ proxy's ids.
  newId: digitsId,
  mounts: IMGTASK_PREFIXES,
  presentedKey: imgtaskPresentedKey,
  // Each submit names its operation.
  create: {
    '/submit/imagine': submitParser(parseImagine),
    '/submit/blend': submitParser(parseBlend),
    '/submit/describe': submitParser(parseDescribe),
    '/submit/action': submitParser(parseAction),
  },
  accepted: { render: (task) => renderSubmitted(task.id) },
  lookup: '/task/:id/fetch',
  // Another key's task answers exactly like an unknown one.
  notFound: (id) => new GatewayError('not_found', `No task ${id.slice(0, 64)}.`, { code: 'task_not_found' }),
  render: (task, _baseUrl, mediaUrl) => renderImgtaskRecord(task, mediaUrl),
  webhook: 'every change',
  errors: { render: renderImgtaskError, pathPrefixes: IMGTASK_PREFIXES },
  routes: registerImgtaskRoutes,
});
