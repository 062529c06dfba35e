/**
 * The imgtask routes beyond the shared task-family ones (submit and fetch): a task's image seed,
 * the caller's tasks by a list of ids (`list-by-condition`), and cancel, answered in the MJ
 * proxy's envelope (cancelling a finished task is refused, as the proxy does). Each looks tasks
 * up through the kernel's one rule.
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import type { GatewayServices } from '../../gateway/contract.js';
import { requestKey } from '../../http/authenticate-first.js';
import { cancelFamilyTask, findFamilyTask } from '../shared/find-family-task.js';
import type { TaskFamilyDefinition } from '../shared/task-family.js';
import { parseIdList } from './parse-submit.js';
import { imgtaskAnswer } from './render-answer.js';
import { renderImgtaskRecord } from './render-task-record.js';

type ById = { Params: { id: string } };

export function registerImgtaskRoutes(app: FastifyInstance, services: GatewayServices, family: TaskFamilyDefinition): void {
  const { tasks } = services;
  app.get<ById>('/task/:id/image-seed', async (request) => {
    const task = await findFamilyTask(tasks, requestKey(request), request.params.id, family);
    if (task.status !== 'succeeded' || task.result?.seed === undefined) {
      throw new GatewayError('invalid_request', `Task ${task.id} has no image yet (status ${task.status}).`, { code: 'no_image' });
    }
    return imgtaskAnswer('Success', task.result.seed);
  });
  app.post('/task/list-by-condition', async (request) => {
    const listed = await tasks.list(requestKey(request), parseIdList(request.body ?? {}));
    return listed.filter((task) => task.surface === family.name).map((task) => renderImgtaskRecord(task, (mediaId) => tasks.mediaUrl(task, mediaId)));
  });
  app.post<ById>('/task/:id/cancel', async (request) => {
    const task = await cancelFamilyTask(tasks, requestKey(request), request.params.id, family);
    if (task.status !== 'canceled') {
      throw new GatewayError('invalid_request', `Task ${task.id} can no longer be canceled (status ${task.status}).`, { code: 'not_cancelable' });
    }
    return imgtaskAnswer('Canceled', task.id);
  });
}
