/**
 * The Gemini surface's routes: `POST /v1beta/models/{model}:{action}` (and `/v1/…`, which
 * newer SDKs default to) dispatched through `geminiActions`, plus the model list and get.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import type { GatewayServices } from '../../gateway/contract.js';
import { geminiActions } from './gemini-actions.js';
import { requestKey } from '../../http/authenticate-first.js';
import { isGeminiServable, renderGeminiModel, renderGeminiModelList } from './render-model-list.js';
import { splitModelAction } from './split-model-action.js';

const API_VERSIONS = ['v1beta', 'v1'] as const;

/** `/v1/models/{id}` without an action belongs to the shared model routes, which authenticate in the caller's dialect. */
export function isGeminiRequest(request: FastifyRequest): boolean {
  const params = request.params as { modelAction?: string } | undefined;
  return !(request.url.startsWith('/v1/') && params?.modelAction !== undefined && splitModelAction(params.modelAction) === undefined);
}

export function registerGeminiRoutes(app: FastifyInstance, services: GatewayServices): void {
  for (const version of API_VERSIONS) {
    app.post<{ Params: { modelAction: string } }>(`/${version}/models/:modelAction`, async (request, reply) => {
      const target = splitModelAction(request.params.modelAction);
      // `/v1/models/{id}` without an action is the shared model route, not Gemini's: answered in the caller's dialect.
      if (target === undefined && version === 'v1') return reply.callNotFound();
      const handler = target === undefined || !Object.hasOwn(geminiActions, target.action) ? undefined : geminiActions[target.action];
      if (target === undefined || handler === undefined) {
        throw new GatewayError('not_found', `${request.params.modelAction} is not a supported method of the ${version} API`, {
          code: 'method_not_found',
        });
      }
      return handler({ request, reply, services, key: requestKey(request), model: target.model });
    });
  }

  app.get('/v1beta/models', async (request) => {
    return renderGeminiModelList(services.listModels(requestKey(request)));
  });

  app.get<{ Params: { model: string } }>('/v1beta/models/:model', async (request) => {
    const id = request.params.model;
    const model = services.listModels(requestKey(request)).find((m) => m.id === id && isGeminiServable(m));
    if (!model) throw new GatewayError('not_found', `models/${id} is not found`, { code: 'model_not_found' });
    return renderGeminiModel(model);
  });
}
