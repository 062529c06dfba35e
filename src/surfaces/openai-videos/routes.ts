/**
 * The OpenAI videos routes (beyond the spec, so the `openai` SDK's `client.videos` works):
 * `POST /v1/videos` (JSON, or multipart with an `input_reference` file), `GET /v1/videos`,
 * `GET /v1/videos/:id`, `DELETE /v1/videos/:id` and `GET /v1/videos/:id/content` (the spec's
 * `GET /v1/videos/:id/download` is `http/video-files/`). Every route serves the caller's video
 * tasks of any video surface. The key comes as `Authorization: Bearer`, checked before the body is read;
 * errors in OpenAI's shape. Registered in a scope that alone parses multipart bodies.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Task } from '../../core/task.js';
import type { GatewayServices } from '../../gateway/contract.js';
import { requestKey } from '../../http/authenticate-first.js';
import { clientSignal } from '../../http/reply-helpers.js';
import { renderOpenAIError } from '../openai/render-error.js';
import { openTaskScope } from '../shared/open-task-scope.js';
import { submitTask } from '../shared/submit-task.js';
import { CREATE_MULTIPART_LIMITS, collectMultipartCreate } from './collect-multipart-create.js';
import { findVideo, videoNotFound } from '../../http/video-files/find-video.js';
import { serveTaskFile } from '../../http/video-files/serve-task-file.js';
import { videoFile } from '../../http/video-files/video-file.js';
import { parseContentVariant, thumbnailFile, variantNotAvailable } from './content-variant.js';
import { jsonCreateParts } from './create-parts.js';
import { openaiVideoStatus } from './openai-video-status.js';
import { OPENAI_VIDEO_PARAMS, parseOpenAIVideoCreate } from './parse-create-request.js';
import { parseVideoListQuery } from './parse-list-query.js';
import { renderOpenAIVideo } from './render-video.js';
import { renderOpenAIVideoList } from './render-video-list.js';
import { videoExpiry } from './video-expiry.js';

type ById = { Params: { id: string } };

export async function registerOpenAIVideosRoutes(app: FastifyInstance, services: GatewayServices): Promise<void> {
  const bodyLimit = app.initialConfig.bodyLimit ?? 1024 * 1024;
  openTaskScope(app, services, renderOpenAIError);
  await app.register(multipart, { limits: { fileSize: bodyLimit, fieldSize: bodyLimit, ...CREATE_MULTIPART_LIMITS } });
  const { tasks } = services;

  app.post('/v1/videos', (request, reply) => create(services, request, reply, bodyLimit));
  app.get('/v1/videos', async (request, reply) => {
    const query = parseVideoListQuery(request.query);
    const page = await tasks.page(requestKey(request), { operation: 'video.generate', ...query });
    const videos = [];
    for (const task of page.tasks) videos.push(await render(services, task));
    return reply.send(renderOpenAIVideoList(videos, page.hasMore));
  });
  app.get<ById>('/v1/videos/:id', async (request, reply) => {
    const task = await findVideo(tasks, requestKey(request), request.params.id);
    return reply.send(await render(services, task));
  });
  app.delete<ById>('/v1/videos/:id', async (request, reply) => {
    const key = requestKey(request);
    const task = await findVideo(tasks, key, request.params.id);
    if (!(await tasks.remove(key, task.id))) throw videoNotFound(task.id);
    return reply.send({ id: task.id, object: 'video.deleted', deleted: true });
  });
  app.route<ById>({
    method: ['GET', 'HEAD'],
    url: '/v1/videos/:id/content',
    handler: async (request, reply) => {
      const variant = parseContentVariant(request.query);
      const task = await findVideo(tasks, requestKey(request), request.params.id);
      const word = openaiVideoStatus(task.status);
      if (variant === 'spritesheet') throw variantNotAvailable(task, variant);
      const file = variant === 'thumbnail' ? thumbnailFile(task, word) : videoFile(task, word);
      return serveTaskFile(request, reply, tasks, task, file, renderOpenAIError);
    },
  });
}

async function render(services: GatewayServices, task: Task) {
  return renderOpenAIVideo(task, await videoExpiry(services.tasks, task));
}

async function create(services: GatewayServices, request: FastifyRequest, reply: FastifyReply, bodyLimit: number): Promise<FastifyReply> {
  const signal = clientSignal(request, reply);
  const parts = request.isMultipart() ? await collectMultipartCreate(request, bodyLimit) : jsonCreateParts(request.body);
  const parsed = await parseOpenAIVideoCreate(parts, services, signal);
  const task = await submitTask(services, request, { surface: 'openai-videos', operation: 'video.generate', parsed, paramNames: OPENAI_VIDEO_PARAMS, signal });
  return reply.send(await render(services, task));
}
