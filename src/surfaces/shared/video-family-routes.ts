/**
 * The routes every video family has, from its data: `POST` create (answers at once), `GET`
 * lookup and, for families that cancel, `DELETE` (a task not finished is canceled; answers the
 * task as it now is). The key comes as `Authorization: Bearer`, checked before the body is read;
 * errors in the family's shape.
 */
import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../../gateway/contract.js';
import { authenticateFirst, requestKey } from '../../http/authenticate-first.js';
import { publicBaseUrl } from '../../http/public-base-url.js';
import { bearerToken, clientSignal, useErrorRenderer } from '../../http/reply-helpers.js';
import { cancelVideoTask, findVideoTask } from './find-video-task.js';
import { submitVideoTask } from './submit-video-task.js';
import type { VideoFamily } from './video-family.js';

type ById = { Params: { id: string } };

export async function registerVideoFamilyRoutes(app: FastifyInstance, services: GatewayServices, family: VideoFamily): Promise<void> {
  const { name, paths } = family;
  useErrorRenderer(app, family.errors.render);
  authenticateFirst(app, (presented) => services.authenticate(presented), bearerToken);
  app.post(paths.create, async (request, reply) => {
    const signal = clientSignal(request, reply);
    const parsed = await family.parse(request.body, services, signal);
    const task = await submitVideoTask(services, request, { surface: name, parsed, paramNames: parsed.paramNames ?? family.paramNames, signal });
    return reply.code(family.accepted.status ?? 200).send(family.accepted.render(task, publicBaseUrl(request)));
  });
  app.get<ById>(paths.lookup, async (request, reply) => {
    const task = await findVideoTask(services.tasks, requestKey(request), request.params.id, name);
    return reply.send(family.render(task, publicBaseUrl(request)));
  });
  if (paths.cancel === undefined) return;
  app.delete<ById>(paths.cancel, async (request, reply) => {
    const task = await cancelVideoTask(services.tasks, requestKey(request), request.params.id, name);
    return reply.send(family.render(task, publicBaseUrl(request)));
  });
}
