/**
 * Submits a parsed create request as a task of the surface, with the public base URL and request
 * id of the request; a provider's refusal naming a canonical field is renamed to the surface's
 * own field name.
 */
import type { FastifyRequest } from 'fastify';
import type { Task, TaskOperation, TaskSurface } from '../../core/task.js';
import type { GatewayServices, TaskCall } from '../../gateway/contract.js';
import { requestKey } from '../../http/authenticate-first.js';
import { publicBaseUrl } from '../../http/public-base-url.js';
import { type ParamNames, renameCanonicalParam } from './rename-canonical-param.js';

interface TaskCreate {
  surface: TaskSurface;
  operation: TaskOperation;
  parsed: Pick<TaskCall, 'request' | 'callback' | 'parentId'>;
  /** None: errors pass unchanged. */
  paramNames?: ParamNames;
  signal: AbortSignal;
}

export async function submitTask(services: GatewayServices, request: FastifyRequest, create: TaskCreate): Promise<Task> {
  const { parsed } = create;
  const call: TaskCall = {
    key: requestKey(request),
    surface: create.surface,
    operation: create.operation,
    request: parsed.request,
    callback: parsed.callback,
    publicBaseUrl: publicBaseUrl(request),
    requestId: String(request.id),
    signal: create.signal,
    http: request,
  };
  if (parsed.parentId !== undefined) call.parentId = parsed.parentId;
  try {
    return await services.tasks.submit(call);
  } catch (error) {
    throw create.paramNames ? renameCanonicalParam(error, create.paramNames) : error;
  }
}
