/**
 * Submits a parsed video create request as a `video.generate` task of the surface; a provider's
 * refusal naming a canonical field is renamed to the surface's own field name.
 */
import type { FastifyRequest } from 'fastify';
import type { Task, TaskSurface } from '../../core/task.js';
import type { GatewayServices, TaskCall } from '../../gateway/contract.js';
import { requestKey } from '../../http/authenticate-first.js';
import { publicBaseUrl } from '../../http/public-base-url.js';
import { type ParamNames, renameCanonicalParam } from './rename-canonical-param.js';

interface VideoCreate {
  surface: TaskSurface;
  parsed: Pick<TaskCall, 'request' | 'callback'>;
  paramNames: ParamNames;
  signal: AbortSignal;
}

export async function submitVideoTask(services: GatewayServices, request: FastifyRequest, create: VideoCreate): Promise<Task> {
  try {
    return await services.tasks.submit({
      key: requestKey(request),
      surface: create.surface,
      operation: 'video.generate',
      request: create.parsed.request,
      callback: create.parsed.callback,
      publicBaseUrl: publicBaseUrl(request),
      requestId: String(request.id),
      signal: create.signal,
    });
  } catch (error) {
    throw renameCanonicalParam(error, create.paramNames);
  }
}
