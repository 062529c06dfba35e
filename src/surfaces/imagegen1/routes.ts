/**
 * The imagegen1 surface's routes: `POST /imagegen1/create`, `GET /imagegen1/task/:id` and
 * `POST /imagegen1/task/:id/cancel`, answered in the shape of Replicate predictions.
 * Creation answers at once (201, `pending`); `Prefer: wait` is not honoured — results come
 * by lookup or by the client's webhook.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import type { Task } from '../../core/task.js';
import type { GatewayServices } from '../../gateway/contract.js';
import { authenticateFirst, requestKey } from '../../http/authenticate-first.js';
import { publicBaseUrl } from '../../http/public-base-url.js';
import { clientSignal, useErrorRenderer } from '../../http/reply-helpers.js';
import { findImagegen1Task, taskNotFound } from './find-task.js';
import { parseCreateRequest } from './parse-create-request.js';
import { renderImagegen1Error } from './render-error.js';
import { renderAcceptedRecord, renderImagegen1Record } from './render-record.js';

export async function registerImagegen1Routes(app: FastifyInstance, services: GatewayServices): Promise<void> {
  useErrorRenderer(app, renderImagegen1Error);
  authenticateFirst(app, (presented) => services.authenticate(presented), presentedKey);
  app.post('/imagegen1/create', (request, reply) => create(services, request, reply));
  app.get<{ Params: { id: string } }>('/imagegen1/task/:id', async (request, reply) => {
    const task = await findImagegen1Task(services.tasks, requestKey(request), request.params.id);
    return reply.send(renderImagegen1Record(task, mediaUrls(services, task), publicBaseUrl(request)));
  });
  app.post<{ Params: { id: string } }>('/imagegen1/task/:id/cancel', async (request, reply) => {
    const key = requestKey(request);
    const { id } = request.params;
    await findImagegen1Task(services.tasks, key, id);
    const task = await services.tasks.cancel(key, id);
    if (!task) throw taskNotFound(id);
    return reply.send(renderImagegen1Record(task, mediaUrls(services, task), publicBaseUrl(request)));
  });
}

async function create(services: GatewayServices, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const key = requestKey(request);
  const parsed = parseCreateRequest(request.body, (url, param) => services.tasks.checkCallbackUrl(url, param));
  refuseRelayedKey(parsed.request.options, presentedKey(request));
  const requestId = String(request.id);
  const base = publicBaseUrl(request);
  const task = await services.tasks.submit({
    key,
    surface: 'imagegen1',
    operation: 'image.generate',
    request: parsed.request,
    callback: parsed.callback,
    publicBaseUrl: base,
    requestId,
    signal: clientSignal(request, reply),
  });
  reply.header('x-request-id', requestId);
  return reply.code(201).send(renderAcceptedRecord(task, mediaUrls(services, task), base));
}

function mediaUrls(services: GatewayServices, task: Task): (mediaId: string) => string {
  return (mediaId) => services.tasks.mediaUrl(task, mediaId);
}

/** Extra inputs go to the model's vendor: the client's gateway key must never be among them. */
function refuseRelayedKey(options: Record<string, unknown> | undefined, presented: string | undefined): void {
  if (!options || !presented) return;
  for (const [name, value] of Object.entries(options)) {
    if (typeof value === 'string' && value.includes(presented)) {
      throw new GatewayError('invalid_request', `${name}: holds your gateway API key, which is never sent to a model`, { param: name, status: 422 });
    }
  }
}

/** `Authorization: Bearer <key>`, or Replicate's older `Authorization: Token <key>`. */
function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^(?:Bearer|Token)\s+(.+)$/i.exec(header);
  const key = match?.[1].trim();
  return key ? key : undefined;
}
