/** The OpenAI surface's routes (Bearer key): chat completions, embeddings, image generations and edits. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { bodyBytes } from '../../http/body-bytes.js';
import { authenticateFirst, requestKey } from '../../http/authenticate-first.js';
import { bearerToken, clientSignal, sendPassthrough, sendSse, setRouteHeaders, useErrorRenderer } from '../../http/reply-helpers.js';
import type { GatewayServices } from '../../gateway/contract.js';
import { createEmbeddings } from './create-embeddings.js';
import { registerOpenAIImageRoutes } from './images/index.js';
import { once } from '../../core/once.js';
import { parseOpenAIChatRequest } from './parse-chat-request.js';
import { peekOpenAIChatRequest } from './peek-chat-request.js';
import { renderOpenAIChatResponse } from './render-chat-response.js';
import { openAIStreamErrorFrame, renderOpenAIChatStream } from './render-chat-stream.js';
import { renderOpenAIError } from './render-error.js';

export async function registerOpenAIRoutes(app: FastifyInstance, services: GatewayServices): Promise<void> {
  useErrorRenderer(app, renderOpenAIError);
  authenticateFirst(app, (presented) => services.authenticate(presented), bearerToken);
  app.post('/v1/chat/completions', (request, reply) => chatCompletions(services, request, reply));
  app.post('/v1/embeddings', (request, reply) => createEmbeddings(services, request, reply));
  await registerOpenAIImageRoutes(app, services);
}

async function chatCompletions(services: GatewayServices, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const peeked = peekOpenAIChatRequest(request.body);
  const requestId = String(request.id);
  const outcome = await services.chat({
    key: requestKey(request),
    surface: 'openai',
    requestId,
    model: peeked.model,
    stream: peeked.stream,
    canonical: once(() => parseOpenAIChatRequest(request.body)),
    documents: peeked.documents,
    raw: { dialect: 'openai', body: request.body as Record<string, unknown>, stream: peeked.stream, errorEvent: openAIStreamErrorFrame },
    signal: clientSignal(request, reply),
    http: request,
    bodyBytes: bodyBytes(request),
  });
  setRouteHeaders(reply, outcome.route);
  switch (outcome.kind) {
    case 'passthrough':
      return sendPassthrough(reply, outcome.response);
    case 'response':
      return reply.send(renderOpenAIChatResponse(outcome.response));
    case 'stream':
      return sendSse(reply, renderOpenAIChatStream(outcome.events, { model: peeked.model, includeUsage: peeked.includeUsage ?? false }));
  }
}
