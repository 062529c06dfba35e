/**
 * `:generateContent` and `:streamGenerateContent`. The raw body goes along for pass-through
 * except for a stream without `alt=sse`: a Gemini upstream is always asked for SSE, so that
 * framing (a JSON array) is rendered here from canonical events instead.
 */
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import { sseData } from '../../core/sse.js';
import { bodyBytes } from '../../http/body-bytes.js';
import { clientSignal, sendPassthrough, sendSse, setRouteHeaders } from '../../http/reply-helpers.js';
import type { RawChatRequest } from '../../core/passthrough.js';
import type { GeminiActionContext } from './gemini-action.js';
import { once } from '../../core/once.js';
import { parseGeminiGenerateRequest } from './parse-generate-request.js';
import { peekGeminiGenerateRequest } from './peek-generate-request.js';
import { renderGeminiGenerateResponse } from './render-generate-response.js';
import { geminiSseErrorFrame, renderGeminiJsonArrayStream, renderGeminiSseStream } from './render-generate-stream.js';

export function handleGenerateContent(context: GeminiActionContext): Promise<unknown> {
  return generate(context, false);
}

export function handleStreamGenerateContent(context: GeminiActionContext): Promise<unknown> {
  return generate(context, true);
}

function wantsSse(request: FastifyRequest): boolean {
  return (request.query as Record<string, unknown> | undefined)?.alt === 'sse';
}

async function generate({ request, reply, services, key, model }: GeminiActionContext, stream: boolean): Promise<unknown> {
  const body = request.body;
  const sse = stream && wantsSse(request);
  // A stream without alt=sse is always translated (the upstream is asked for SSE): parse at once.
  const passthroughPossible = !stream || sse;
  const peeked = peekGeminiGenerateRequest(body, model, stream);
  const canonical = once(() => parseGeminiGenerateRequest(body, model, stream));
  if (!passthroughPossible) canonical();
  const raw: RawChatRequest | undefined = passthroughPossible
    ? { dialect: 'gemini', body: body as Record<string, unknown>, stream, model, errorEvent: geminiSseErrorFrame }
    : undefined;
  const outcome = await services.chat({
    key,
    surface: 'gemini',
    requestId: String(request.id),
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
    case 'passthrough':
      return sendPassthrough(reply, outcome.response);
    case 'response': {
      const rendered = renderGeminiGenerateResponse(outcome.response);
      if (!stream) return reply.send(rendered);
      // A whole answer to a stream request is a stream of one chunk.
      const json = JSON.stringify(rendered);
      if (sse) return sendSse(reply, Readable.from([sseData(json)]));
      return sendJsonArray(reply, Readable.from([`[${json}]`]));
    }
    case 'stream':
      if (!stream) throw new GatewayError('internal', 'a stream was produced for a non-streaming request');
      if (sse) return sendSse(reply, renderGeminiSseStream(outcome.events));
      return sendJsonArray(reply, Readable.from(renderGeminiJsonArrayStream(outcome.events)));
  }
}

function sendJsonArray(reply: FastifyReply, body: Readable): FastifyReply {
  reply.header('content-type', 'application/json; charset=UTF-8');
  reply.header('cache-control', 'no-cache');
  reply.header('x-accel-buffering', 'no');
  return reply.send(body);
}
