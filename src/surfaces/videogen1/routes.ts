/**
 * The videogen1 surface's routes: `POST /videogen1/video` (creates a task and answers at once,
 * `pending`) and `GET /videogen1/video/:task_id`, in videogen1's `{code, message, data}`
 * envelope. The key comes as `Authorization: Bearer`, checked before the body is read.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayServices } from '../../gateway/contract.js';
import { authenticateFirst, requestKey } from '../../http/authenticate-first.js';
import { bearerToken, clientSignal, useErrorRenderer } from '../../http/reply-helpers.js';
import { findVideoTask } from '../shared/find-video-task.js';
import { publicBaseUrl } from '../../http/public-base-url.js';
import { submitVideoTask } from '../shared/submit-video-task.js';
import { paramTable } from '../shared/rename-canonical-param.js';
import { parseVideogen1Create } from './parse-create-request.js';
import { renderVideogen1Error } from './render-error.js';
import { renderVideogen1Accepted, renderVideogen1Task } from './render-record.js';

/** A provider's refusal names the canonical field; the client reads its own. */
const PARAM_NAMES = paramTable({ seconds: 'duration', aspectRatio: 'aspect_ratio' });

export async function registerVideogen1Routes(app: FastifyInstance, services: GatewayServices): Promise<void> {
  useErrorRenderer(app, renderVideogen1Error);
  authenticateFirst(app, (presented) => services.authenticate(presented), bearerToken);
  app.post('/videogen1/video', (request, reply) => create(services, request, reply));
  app.get<{ Params: { task_id: string } }>('/videogen1/video/:task_id', async (request, reply) => {
    const task = await findVideoTask(services.tasks, requestKey(request), request.params.task_id, 'videogen1');
    return reply.send(renderVideogen1Task(task, publicBaseUrl(request)));
  });
}

async function create(services: GatewayServices, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const parsed = parseVideogen1Create(request.body, (url, param) => services.tasks.checkCallbackUrl(url, param));
  const task = await submitVideoTask(services, request, { surface: 'videogen1', parsed, paramNames: PARAM_NAMES, signal: clientSignal(request, reply) });
  return reply.send(renderVideogen1Accepted(task));
}
