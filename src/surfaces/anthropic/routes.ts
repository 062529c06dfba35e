/**
 * The Anthropic surface's routes: `POST /v1/messages` and `POST /v1/messages/count_tokens`,
 * in their own encapsulated context so errors render in Anthropic's shape.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RawChatRequest } from '../../core/passthrough.js';
import { bodyBytes } from '../../http/body-bytes.js';
import { authenticateFirst, requestKey } from '../../http/authenticate-first.js';
import { bearerToken, clientSignal, sendPassthrough, sendSse, setRouteHeaders, useErrorRenderer } from '../../http/reply-helpers.js';
import type { GatewayServices } from '../../gateway/contract.js';
import { loadTokenizer } from '../../core/tokenizer.js';
import { estimateInputTokens } from './estimate-input-tokens.js';
import { once } from '../../core/once.js';
import { parseAnthropicMessagesRequest } from './parse-messages-request.js';
import { peekAnthropicMessagesRequest } from './peek-messages-request.js';
import { renderAnthropicError } from './render-error.js';
import { renderAnthropicMessagesResponse } from './render-messages-response.js';
import { anthropicStreamErrorFrame, renderAnthropicMessagesStream } from './render-messages-stream.js';

/** The 0.x SDKs send `x-api-key`; the 1.x SDKs send `Authorization: Bearer`. */
function presentedKey(request: FastifyRequest): string | undefined {
  const header = request.headers['x-api-key'];
  const apiKey = Array.isArray(header) ? header[0] : header;
  return apiKey && apiKey.length > 0 ? apiKey : bearerToken(request);
}

/** The client's Anthropic headers worth forwarding on pass-through. */
function dialectHeaders(request: FastifyRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ['anthropic-version', 'anthropic-beta']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
    else if (Array.isArray(value)) headers[name] = value.join(',');
  }
  return headers;
}

async function createMessage(services: GatewayServices, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const requestId = String(request.id);
  reply.header('request-id', requestId);
  const peeked = peekAnthropicMessagesRequest(request.body);
  const canonical = once(() => parseAnthropicMessagesRequest(request.body));
  const raw: RawChatRequest = {
    dialect: 'anthropic',
    body: request.body as Record<string, unknown>,
    stream: peeked.stream,
    headers: dialectHeaders(request),
    errorEvent: anthropicStreamErrorFrame,
  };
  const outcome = await services.chat({
    key: requestKey(request),
    surface: 'anthropic',
    requestId,
    model: peeked.model,
    stream: peeked.stream,
    canonical,
    documents: peeked.documents,
    raw,
    signal: clientSignal(request, reply),
    http: request,
    bodyBytes: bodyBytes(request),
  });
  setRouteHeaders(reply, outcome.route);
  switch (outcome.kind) {
    case 'response':
      return reply.send(renderAnthropicMessagesResponse(outcome.response));
    case 'stream':
      // A translated stream: its upstream states input tokens only at the end.
      await loadTokenizer();
      return sendSse(
        reply,
        renderAnthropicMessagesStream(outcome.events, peeked.model, () => estimateInputTokens(canonical())),
      );
    case 'passthrough':
      return sendPassthrough(reply, outcome.response);
  }
}

async function countTokens(services: GatewayServices, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  reply.header('request-id', String(request.id));
  const chatRequest = parseAnthropicMessagesRequest(request.body, { countOnly: true });
  services.checkAccess(requestKey(request), chatRequest.model, 'chat');
  await loadTokenizer();
  return reply.send({ input_tokens: estimateInputTokens(chatRequest) });
}

export function registerAnthropicRoutes(app: FastifyInstance, services: GatewayServices): void {
  useErrorRenderer(app, renderAnthropicError);
  authenticateFirst(app, (presented) => services.authenticate(presented), presentedKey);
  app.post('/v1/messages', (request, reply) => createMessage(services, request, reply));
  app.post('/v1/messages/count_tokens', (request, reply) => countTokens(services, request, reply));
}
