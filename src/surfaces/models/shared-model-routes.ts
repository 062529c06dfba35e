/**
 * `GET /v1/models` and `GET /v1/models/:model` are shared by three dialects. The caller's
 * headers tell which one is asking: a Gemini key (`x-goog-api-key` or `?key=`) gets the Gemini
 * shape, an Anthropic client (`anthropic-version` or `x-api-key`) the Anthropic shape, anyone
 * else the OpenAI shape — errors included.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { truncateText } from '../../core/describe-value.js';
import { GatewayError, toGatewayError } from '../../core/errors.js';
import { renderAnthropicError } from '../anthropic/render-error.js';
import { renderAnthropicModelList } from '../anthropic/render-model-list.js';
import { renderGeminiError } from '../gemini/render-error.js';
import { renderGeminiModel, renderGeminiModelList } from '../gemini/render-model-list.js';
import { renderOpenAIError } from '../openai/render-error.js';
import { renderOpenAIModel, renderOpenAIModelList } from '../openai/render-model-list.js';
import type { ModelInfo } from '../../core/model-info.js';
import type { GatewayServices } from '../../gateway/contract.js';
import type { ErrorRenderer } from '../../http/error-renderer.js';
import { bearerToken } from '../../http/reply-helpers.js';
import { modelsDialect, type ModelsDialect } from '../../http/error-family.js';

type Dialect = ModelsDialect;

function headerString(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function dialectOf(request: FastifyRequest): Dialect {
  const query = request.query as Record<string, unknown>;
  return modelsDialect(request.headers, typeof query.key === 'string');
}

function presentedKey(request: FastifyRequest, dialect: Dialect): string | undefined {
  if (dialect === 'gemini') {
    const query = request.query as Record<string, unknown>;
    return headerString(request, 'x-goog-api-key') ?? (typeof query.key === 'string' ? query.key : undefined) ?? bearerToken(request);
  }
  if (dialect === 'anthropic') return headerString(request, 'x-api-key') ?? bearerToken(request);
  return bearerToken(request);
}

const ERROR_RENDERERS: Record<Dialect, ErrorRenderer> = {
  openai: renderOpenAIError,
  anthropic: renderAnthropicError,
  gemini: renderGeminiError,
};

function renderOne(dialect: Dialect, model: ModelInfo): unknown {
  if (dialect === 'gemini') return renderGeminiModel(model);
  if (dialect === 'anthropic') return (renderAnthropicModelList([model]) as { data: unknown[] }).data[0];
  return renderOpenAIModel(model);
}

export function registerSharedModelRoutes(app: FastifyInstance, services: GatewayServices): void {
  const handle = async (request: FastifyRequest, reply: FastifyReply, id: string | undefined): Promise<void> => {
    const dialect = dialectOf(request);
    try {
      const key = await services.authenticate(presentedKey(request, dialect));
      const models = services.listModels(key);
      if (id === undefined) {
        const body =
          dialect === 'gemini' ? renderGeminiModelList(models) : dialect === 'anthropic' ? renderAnthropicModelList(models) : renderOpenAIModelList(models);
        reply.send(body);
        return;
      }
      const bare = id.startsWith('models/') ? id.slice('models/'.length) : id;
      const model = models.find((m) => m.id === bare);
      if (!model)
        throw new GatewayError('not_found', `The model \`${truncateText(bare)}\` does not exist or you do not have access to it.`, {
          code: 'model_not_found',
          param: 'model',
        });
      reply.send(renderOne(dialect, model));
    } catch (error) {
      const rendered = ERROR_RENDERERS[dialect](toGatewayError(error), String(request.id));
      if (rendered.headers) for (const [name, value] of Object.entries(rendered.headers)) reply.header(name, value);
      reply.code(rendered.status).send(rendered.body);
    }
  };
  app.get('/v1/models', (request, reply) => handle(request, reply, undefined));
  app.get<{ Params: { model: string } }>('/v1/models/:model', (request, reply) => handle(request, reply, request.params.model));
}
