/**
 * The OpenAI image endpoints: `POST /v1/images/generations` (JSON) and `POST /v1/images/edits`
 * (multipart/form-data as openai-node sends it, or JSON). Registered in a nested scope that
 * alone parses multipart bodies, bounded by the gateway's body limit.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestKey } from '../../../http/authenticate-first.js';
import { publicBaseUrl } from '../../../http/public-base-url.js';
import { clientSignal, setRouteHeaders, useErrorRenderer } from '../../../http/reply-helpers.js';
import type { GatewayServices, ImageCall, ImagesOutcome } from '../../../gateway/contract.js';
import { renderOpenAIError } from '../render-error.js';
import { collectJsonEdit } from './collect-json-edit.js';
import { collectMultipartEdit } from './collect-multipart-edit.js';
import { MAX_EDIT_IMAGES } from './edit-parts.js';
import { parseOpenAIEditRequest } from './parse-edit-request.js';
import { parseOpenAIGenerationRequest } from './parse-generation-request.js';
import { renderOpenAIImagesResponse } from './render-images-response.js';

type CallBase = Pick<ImageCall, 'key' | 'surface' | 'requestId' | 'signal' | 'http' | 'publicBaseUrl'>;

export async function registerOpenAIImageRoutes(app: FastifyInstance, services: GatewayServices): Promise<void> {
  await app.register(async (scope) => {
    const bodyLimit = scope.initialConfig.bodyLimit ?? 1024 * 1024;
    useErrorRenderer(scope, renderOpenAIError);
    await scope.register(multipart, {
      limits: {
        fileSize: bodyLimit,
        fieldSize: bodyLimit,
        // Room for the images, a mask and one more, so that one image too many is told apart from a flood.
        files: MAX_EDIT_IMAGES + 2,
        fields: 64,
        parts: 128,
      },
    });
    scope.post('/v1/images/generations', (request, reply) => generations(services, request, reply));
    scope.post('/v1/images/edits', (request, reply) => edits(services, request, reply, bodyLimit));
  });
}

function begin(request: FastifyRequest, reply: FastifyReply): CallBase {
  return {
    key: requestKey(request),
    surface: 'openai',
    requestId: String(request.id),
    signal: clientSignal(request, reply),
    http: request,
    publicBaseUrl: publicBaseUrl(request),
  };
}

function send(reply: FastifyReply, outcome: ImagesOutcome): FastifyReply {
  setRouteHeaders(reply, outcome.route);
  return reply.send(renderOpenAIImagesResponse(outcome.result));
}

async function generations(services: GatewayServices, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const base = begin(request, reply);
  const generateRequest = parseOpenAIGenerationRequest(request.body);
  return send(reply, await services.images({ ...base, operation: 'image.generate', request: generateRequest }));
}

async function edits(services: GatewayServices, request: FastifyRequest, reply: FastifyReply, bodyLimit: number): Promise<FastifyReply> {
  const base = begin(request, reply);
  const parts = request.isMultipart() ? await collectMultipartEdit(request, bodyLimit) : collectJsonEdit(request.body);
  const editRequest = await parseOpenAIEditRequest(parts, (url, param) => services.fetchImage(url, param, base.signal), services.imageLimits);
  return send(reply, await services.images({ ...base, operation: 'image.edit', request: editRequest }));
}
