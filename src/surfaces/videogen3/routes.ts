/**
 * The videogen3 surface's routes: `POST /videogen3/generate` (creates a generation, 201
 * `queued`) and `GET /videogen3/task/:taskId` (free of charge, as every task lookup is), in the
 * shape of Luma generations with Luma's `{detail}` errors. The key comes as
 * `Authorization: Bearer`, checked before the body is read.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayServices } from '../../gateway/contract.js';
import { authenticateFirst, requestKey } from '../../http/authenticate-first.js';
import { bearerToken, clientSignal, useErrorRenderer } from '../../http/reply-helpers.js';
import { findVideoTask } from '../shared/find-video-task.js';
import { publicBaseUrl } from '../../http/public-base-url.js';
import { submitVideoTask } from '../shared/submit-video-task.js';
import { paramTable } from '../shared/rename-canonical-param.js';
import { parseVideogen3Create } from './parse-create-request.js';
import { renderVideogen3Error } from './render-error.js';
import { renderVideogen3Accepted, renderVideogen3Generation } from './render-generation.js';

/** A provider's refusal names the canonical field; the client reads its own. */
const PARAM_NAMES = paramTable({ seconds: 'duration', aspectRatio: 'aspect_ratio', images: 'keyframes', imageRoles: 'keyframes' });

export async function registerVideogen3Routes(app: FastifyInstance, services: GatewayServices): Promise<void> {
  useErrorRenderer(app, renderVideogen3Error);
  authenticateFirst(app, (presented) => services.authenticate(presented), bearerToken);
  app.post('/videogen3/generate', (request, reply) => create(services, request, reply));
  app.get<{ Params: { taskId: string } }>('/videogen3/task/:taskId', async (request, reply) => {
    const task = await findVideoTask(services.tasks, requestKey(request), request.params.taskId, 'videogen3');
    return reply.send(renderVideogen3Generation(task, publicBaseUrl(request)));
  });
}

async function create(services: GatewayServices, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const signal = clientSignal(request, reply);
  const parsed = await parseVideogen3Create(request.body, services, signal);
  const base = publicBaseUrl(request);
  const task = await submitVideoTask(services, request, { surface: 'videogen3', parsed, paramNames: PARAM_NAMES, signal });
  return reply.code(201).send(renderVideogen3Accepted(task, base));
}
