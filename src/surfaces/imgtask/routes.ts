/**
 * The imgtask routes, the same under `/imgtask/…` (the spec's paths) and `/mj/…` (so MJ-proxy
 * clients work by changing only their base URL): submit imagine, blend, describe and action;
 * task fetch, image-seed, list-by-condition and cancel. The key comes as a Bearer token or in
 * the MJ proxy's `mj-api-secret` header. The client's notifyHook is never sent upstream: the
 * gateway delivers the task record there itself, signed.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError, invalidRequest } from '../../core/errors.js';
import type { Task } from '../../core/task.js';
import type { GatewayServices } from '../../gateway/contract.js';
import { authenticateFirst, requestKey } from '../../http/authenticate-first.js';
import { publicBaseUrl } from '../../http/public-base-url.js';
import { bearerToken, clientSignal, useErrorRenderer } from '../../http/reply-helpers.js';
import { type ParsedSubmit, parseAction, parseBlend, parseDescribe, parseIdList, parseImagine } from './parse-submit.js';
import { renderImgtaskError } from './render-error.js';
import { renderImgtaskRecord } from './render-task-record.js';

type Parser = (body: unknown, services: GatewayServices) => ParsedSubmit;

const SUBMITS: Record<string, Parser> = {
  '/submit/imagine': (body, services) => parseImagine(body, services.imageLimits),
  '/submit/blend': (body, services) => parseBlend(body, services.imageLimits),
  '/submit/describe': (body, services) => parseDescribe(body, services.imageLimits),
  '/submit/action': (body) => parseAction(body),
};

export async function registerImgtaskRoutes(app: FastifyInstance, services: GatewayServices): Promise<void> {
  useErrorRenderer(app, renderImgtaskError);
  authenticateFirst(app, (presented) => services.authenticate(presented), presentedKey);
  for (const [path, parse] of Object.entries(SUBMITS)) {
    app.post(path, (request, reply) => submit(services, parse, request, reply));
  }
  app.get<{ Params: { id: string } }>('/task/:id/fetch', async (request) => {
    const task = await ownTask(services, request, request.params.id);
    return renderImgtaskRecord(task, (mediaId) => services.tasks.mediaUrl(task, mediaId));
  });
  app.get<{ Params: { id: string } }>('/task/:id/image-seed', async (request) => {
    const task = await ownTask(services, request, request.params.id);
    if (task.status !== 'succeeded' || task.result?.seed === undefined) {
      throw new GatewayError('invalid_request', `Task ${task.id} has no image yet (status ${task.status}).`, { code: 'no_image' });
    }
    return { code: 1, description: 'Success', result: task.result.seed };
  });
  app.post('/task/list-by-condition', async (request) => {
    const tasks = await services.tasks.list(requestKey(request), parseIdList(request.body ?? {}));
    return tasks.map((task) => renderImgtaskRecord(task, (mediaId) => services.tasks.mediaUrl(task, mediaId)));
  });
  app.post<{ Params: { id: string } }>('/task/:id/cancel', async (request) => {
    const task = await services.tasks.cancel(requestKey(request), request.params.id);
    if (!task) throw notFound(request.params.id);
    if (task.status !== 'canceled') {
      throw new GatewayError('invalid_request', `Task ${task.id} can no longer be canceled (status ${task.status}).`, { code: 'not_cancelable' });
    }
    return { code: 1, description: 'Canceled', result: task.id };
  });
}

async function submit(services: GatewayServices, parse: Parser, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const key = requestKey(request);
  if (request.body === undefined) throw invalidRequest('the request body is empty; a JSON object is required');
  const parsed = parse(request.body, services);
  if (parsed.notifyHook !== undefined) services.tasks.checkCallbackUrl(parsed.notifyHook, 'notifyHook');
  const task = await services.tasks.submit({
    key,
    surface: 'imgtask',
    requestId: String(request.id),
    signal: clientSignal(request, reply),
    operation: parsed.operation,
    request: parsed.request,
    parentId: parsed.parentId,
    callback: parsed.notifyHook === undefined ? undefined : { url: parsed.notifyHook, state: parsed.state },
    publicBaseUrl: publicBaseUrl(request),
  });
  return reply.send({ code: 1, description: 'Submit success', result: task.id, properties: {} });
}

async function ownTask(services: GatewayServices, request: FastifyRequest, id: string): Promise<Task> {
  const task = await services.tasks.get(requestKey(request), id);
  if (!task) throw notFound(id);
  return task;
}

/** Another key's task answers exactly like an unknown one. */
function notFound(id: string): GatewayError {
  return new GatewayError('not_found', `No task ${id.slice(0, 64)}.`, { code: 'task_not_found' });
}

/** Bearer, as the spec's samples send it, or the MJ proxy's own header. */
function presentedKey(request: FastifyRequest): string | undefined {
  const secret = request.headers['mj-api-secret'];
  return bearerToken(request) ?? (typeof secret === 'string' && secret.length > 0 ? secret : undefined);
}
