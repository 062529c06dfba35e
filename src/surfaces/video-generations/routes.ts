/**
 * The `/v1/video/generations` routes (Ark's content generation tasks under the gateway's `/v1`):
 * `POST /v1/video/generations` (answers at once, `submitted`), `GET /v1/video/generations/:id`
 * and `DELETE /v1/video/generations/:id` (Ark's cancel: a task not finished is canceled; answers
 * the task as it now is). Errors in OpenAI's shape, as everything under `/v1` and as Ark's own.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayServices } from '../../gateway/contract.js';
import { authenticateFirst, requestKey } from '../../http/authenticate-first.js';
import { bearerToken, clientSignal, useErrorRenderer } from '../../http/reply-helpers.js';
import { renderOpenAIError } from '../openai/render-error.js';
import { cancelVideoTask, findVideoTask } from '../shared/find-video-task.js';
import { publicBaseUrl } from '../../http/public-base-url.js';
import { submitVideoTask } from '../shared/submit-video-task.js';
import { parseVideoGenerationsCreate } from './parse-create-request.js';
import { renderVideoGenerationsAccepted, renderVideoGenerationsTask } from './render-record.js';

export async function registerVideoGenerationsRoutes(app: FastifyInstance, services: GatewayServices): Promise<void> {
  useErrorRenderer(app, renderOpenAIError);
  authenticateFirst(app, (presented) => services.authenticate(presented), bearerToken);
  app.post('/v1/video/generations', (request, reply) => create(services, request, reply));
  app.get<{ Params: { id: string } }>('/v1/video/generations/:id', async (request, reply) => {
    const task = await findVideoTask(services.tasks, requestKey(request), request.params.id, 'video-generations');
    return reply.send(renderVideoGenerationsTask(task, publicBaseUrl(request)));
  });
  app.delete<{ Params: { id: string } }>('/v1/video/generations/:id', async (request, reply) => {
    const task = await cancelVideoTask(services.tasks, requestKey(request), request.params.id, 'video-generations');
    return reply.send(renderVideoGenerationsTask(task, publicBaseUrl(request)));
  });
}

async function create(services: GatewayServices, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const signal = clientSignal(request, reply);
  const parsed = await parseVideoGenerationsCreate(request.body, services, signal);
  const task = await submitVideoTask(services, request, { surface: 'video-generations', parsed, paramNames: parsed.paramNames, signal });
  return reply.send(renderVideoGenerationsAccepted(task));
}
