/**
 * The routes every task family has, from its data: `POST` create (one route per create path;
 * answers at once), `GET` lookup and, for families that cancel, the cancel route (a task not
 * finished is canceled; answers the task as it now is). The key is checked before the body is
 * read; errors in the family's shape. The family's own `routes` follow in the same scope.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Task } from '../../core/task.js';
import type { GatewayServices } from '../../gateway/contract.js';
import { requestKey } from '../../http/authenticate-first.js';
import { publicBaseUrl } from '../../http/public-base-url.js';
import { bearerToken, clientSignal } from '../../http/reply-helpers.js';
import { cancelFamilyTask, findFamilyTask } from './find-family-task.js';
import { openTaskScope } from './open-task-scope.js';
import { submitTask } from './submit-task.js';
import type { TaskFamilyDefinition, TaskRenderer } from './task-family.js';

type ById = { Params: { id: string } };

export async function registerTaskFamilyRoutes(app: FastifyInstance, services: GatewayServices, family: TaskFamilyDefinition): Promise<void> {
  const presentedKey = family.presentedKey ?? bearerToken;
  openTaskScope(app, services, family.errors.render, presentedKey);
  const show = (render: TaskRenderer, task: Task, request: FastifyRequest) =>
    render(task, publicBaseUrl(request), (mediaId) => services.tasks.mediaUrl(task, mediaId));
  for (const [path, parse] of Object.entries(family.create)) {
    app.post(path, async (request, reply) => {
      const signal = clientSignal(request, reply);
      const parsed = await parse(request.body, services, signal, presentedKey(request));
      const operation = parsed.operation ?? family.operation;
      if (operation === undefined) throw new Error(`task family ${family.name}: neither the family nor its parser names an operation`);
      const paramNames = parsed.paramNames ?? family.paramNames;
      const task = await submitTask(services, request, { surface: family.name, operation, parsed, paramNames, signal });
      return reply.code(family.accepted.status ?? 200).send(show(family.accepted.render, task, request));
    });
  }
  app.get<ById>(family.lookup, async (request, reply) => {
    const task = await findFamilyTask(services.tasks, requestKey(request), request.params.id, family);
    return reply.send(show(family.render, task, request));
  });
  if (family.cancel !== undefined) {
    app.route<ById>({
      method: family.cancel.method,
      url: family.cancel.path,
      handler: async (request, reply) => {
        const task = await cancelFamilyTask(services.tasks, requestKey(request), request.params.id, family);
        return reply.send(show(family.render, task, request));
      },
    });
  }
  family.routes?.(app, services, family);
}
