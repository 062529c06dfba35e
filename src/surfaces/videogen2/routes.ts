/**
 * The videogen2 surface's routes: `POST /videogen2/video` (creates a task and answers at once,
 * `submitted`), `GET /videogen2/video/:id`, and `DELETE /videogen2/video/:id` (beyond the spec,
 * as Ark cancels: a task not finished is canceled; answers the task as it now is). The key
 * comes as `Authorization: Bearer`, checked before the body is read.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayServices } from '../../gateway/contract.js';
import { authenticateFirst, requestKey } from '../../http/authenticate-first.js';
import { bearerToken, clientSignal, useErrorRenderer } from '../../http/reply-helpers.js';
import { cancelVideoTask, findVideoTask } from '../shared/find-video-task.js';
import { publicBaseUrl } from '../../http/public-base-url.js';
import { submitVideoTask } from '../shared/submit-video-task.js';
import { paramTable } from '../shared/rename-canonical-param.js';
import { parseVideogen2Create } from './parse-create-request.js';
import { renderVideogen2Error } from './render-error.js';
import { renderVideogen2Accepted, renderVideogen2Task } from './render-record.js';

/** A provider's refusal names the canonical field; the client reads its own. */
const PARAM_NAMES = paramTable({ seconds: 'duration', aspectRatio: 'aspect_ratio', images: 'image_url', imageRoles: 'image_url' });

export async function registerVideogen2Routes(app: FastifyInstance, services: GatewayServices): Promise<void> {
  useErrorRenderer(app, renderVideogen2Error);
  authenticateFirst(app, (presented) => services.authenticate(presented), bearerToken);
  app.post('/videogen2/video', (request, reply) => create(services, request, reply));
  app.get<{ Params: { id: string } }>('/videogen2/video/:id', async (request, reply) => {
    const task = await findVideoTask(services.tasks, requestKey(request), request.params.id, 'videogen2');
    return reply.send(renderVideogen2Task(task, publicBaseUrl(request)));
  });
  app.delete<{ Params: { id: string } }>('/videogen2/video/:id', async (request, reply) => {
    const task = await cancelVideoTask(services.tasks, requestKey(request), request.params.id, 'videogen2');
    return reply.send(renderVideogen2Task(task, publicBaseUrl(request)));
  });
}

async function create(services: GatewayServices, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const signal = clientSignal(request, reply);
  const parsed = await parseVideogen2Create(request.body, services, signal);
  const task = await submitVideoTask(services, request, { surface: 'videogen2', parsed, paramNames: PARAM_NAMES, signal });
  return reply.send(renderVideogen2Accepted(task));
}
