/**
 * The imagegen2 surface's routes: `POST /imagegen2/remix`, `/imagegen2/edit` and
 * `/imagegen2/remix-image`, JSON bodies, answered in Ideogram's shape.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalidRequest } from '../../core/errors.js';
import { authenticateFirst, requestKey } from '../../http/authenticate-first.js';
import { publicBaseUrl } from '../../http/public-base-url.js';
import { bearerToken, clientSignal, setRouteHeaders, useErrorRenderer } from '../../http/reply-helpers.js';
import type { GatewayServices } from '../../gateway/contract.js';
import { imagegen2Endpoints, type Imagegen2Endpoint } from './imagegen2-endpoints.js';
import { createImageLoader } from './load-image-value.js';
import { renderImagegen2Error } from './render-error.js';
import { renderImagegen2Response } from './render-images-response.js';

export async function registerImagegen2Routes(app: FastifyInstance, services: GatewayServices): Promise<void> {
  useErrorRenderer(app, renderImagegen2Error);
  authenticateFirst(app, (presented) => services.authenticate(presented), presentedKey);
  for (const [path, endpoint] of Object.entries(imagegen2Endpoints)) {
    app.post(path, (request, reply) => handle(services, endpoint, request, reply));
  }
}

async function handle(services: GatewayServices, endpoint: Imagegen2Endpoint, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const key = requestKey(request);
  if (request.body === undefined) throw invalidRequest('the request body is empty; a JSON object is required');
  const signal = clientSignal(request, reply);
  const parsed = await endpoint(request.body, createImageLoader(services, signal));
  const requestId = String(request.id);
  const outcome = await services.images({
    key,
    surface: 'imagegen2',
    requestId,
    signal,
    http: request,
    publicBaseUrl: publicBaseUrl(request),
    ...parsed,
  });
  setRouteHeaders(reply, outcome.route);
  reply.header('x-request-id', requestId);
  const { prompt, seed, options } = parsed.request;
  return reply.send(renderImagegen2Response(outcome.result, { prompt, seed, options }));
}

/** Bearer, as the spec's samples send it; Ideogram's own `Api-Key` header is accepted too. */
function presentedKey(request: FastifyRequest): string | undefined {
  const apiKey = request.headers['api-key'];
  return bearerToken(request) ?? (typeof apiKey === 'string' && apiKey.length > 0 ? apiKey : undefined);
}
