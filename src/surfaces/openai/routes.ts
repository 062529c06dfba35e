/** The OpenAI surface's routes (Bearer key): chat completions, embeddings, image generations and edits. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { authenticateFirst, requestKey } from '../../http/authenticate-first.js';
import { bearerToken, clientSignal, sendPassthrough, sendSse, setRouteHeaders, useErrorRenderer } from '../../http/reply-helpers.js';
import type { GatewayServices } from '../../gateway/contract.js';
import { createEmbeddings } from './create-embeddings.js';
import { registerOpenAIImageRoutes } from './images/index.js';
import { parseOpenAIChatRequest } from './parse-chat-request.js';
import { renderOpenAIChatResponse } from './render-chat-response.js';
import { renderOpenAIChatStream } from './render-chat-stream.js';
import { renderOpenAIError } from './render-error.js';

export async function registerOpenAIRoutes(app: FastifyInstance, services: GatewayServices): Promise<void> {
  useErrorRenderer(app, renderOpenAIError);
  authenticateFirst(app, (presented) => services.authenticate(presented), bearerToken);
  app.post('/v1/chat/completions', (request, reply) => chatCompletions(services, request, reply));
  app.post('/v1/embeddings', (request, reply) => createEmbeddings(services, request, reply));
  await registerOpenAIImageRoutes(app, services);
}

async function chatCompletions(services: GatewayServices, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const chatRequest = parseOpenAIChatRequest(request.body);
  const requestId = String(request.id);
  const outcome = await services.chat({
    key: requestKey(request),
    surface: 'openai',
    requestId,
    model: chatRequest.model,
    stream: chatRequest.stream,
    canonical: () => chatRequest,
    raw: { dialect: 'openai', body: request.body as Record<string, unknown>, stream: chatRequest.stream },
    signal: clientSignal(request, reply),
  });
  setRouteHeaders(reply, outcome.route);
  switch (outcome.kind) {
    case 'passthrough':
      return sendPassthrough(reply, outcome.response);
    case 'response':
      reply.header('x-request-id', requestId);
      return reply.send(renderOpenAIChatResponse(outcome.response));
    case 'stream':
      reply.header('x-request-id', requestId);
      return sendSse(reply, renderOpenAIChatStream(outcome.events, { model: chatRequest.model, includeUsage: chatRequest.includeUsage ?? false }));
  }
}
