/** `POST /v1/embeddings` with a Bearer key. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestKey } from '../../http/authenticate-first.js';
import { clientSignal, setRouteHeaders } from '../../http/reply-helpers.js';
import type { GatewayServices } from '../../gateway/contract.js';
import { decodeTokenInputs } from './decode-token-inputs.js';
import { parseOpenAIEmbeddingsRequest } from './parse-embeddings-request.js';
import { renderOpenAIEmbeddingsResponse } from './render-embeddings-response.js';

export async function createEmbeddings(services: GatewayServices, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const key = requestKey(request);
  const parsed = parseOpenAIEmbeddingsRequest(request.body);
  const inputs = await decodeTokenInputs(parsed.inputs);
  const requestId = String(request.id);
  const outcome = await services.embed({
    key,
    surface: 'openai',
    requestId,
    request: { ...parsed.fields, inputs },
    signal: clientSignal(request, reply),
    http: request,
  });
  setRouteHeaders(reply, outcome.route);
  reply.header('x-request-id', requestId);
  return reply.send(renderOpenAIEmbeddingsResponse(outcome.response, parsed.encodingFormat));
}
