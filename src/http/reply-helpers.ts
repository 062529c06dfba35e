/**
 * Helpers every surface uses to write responses: route headers, SSE streams, pass-through
 * relays and errors in the surface's own shape.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type CallAbort, callAbort } from '../core/call-abort.js';
import type { RouteInfo } from '../core/route.js';
import { answerableError } from './answerable-error.js';
import { coalesceWrites } from './coalesce-writes.js';
import type { ErrorRenderer } from './error-renderer.js';
import { replyWithError } from './edge-errors.js';

/** Tells the client which channel answered, and that the answer is simulated when it is. */
export function setRouteHeaders(reply: FastifyReply, route: RouteInfo): void {
  reply.header('x-gengate-provider', route.provider);
  reply.header('x-gengate-channel', route.channel);
  reply.header('x-gengate-route', route.passthrough ? 'passthrough' : 'translated');
  if (route.simulated) reply.header('x-gengate-simulated', 'true');
  if (route.warnings && route.warnings.length > 0) reply.header('x-gengate-warnings', warningsHeader(route.warnings));
}

/** Streams SSE frames (strings) produced by a surface's stream renderer. */
export function sendSse(reply: FastifyReply, frames: AsyncIterable<string>): FastifyReply {
  reply.header('content-type', 'text/event-stream; charset=utf-8');
  reply.header('cache-control', 'no-cache');
  reply.header('x-accel-buffering', 'no');
  const body = Readable.from(frames, { objectMode: false });
  coalesceWrites(body, reply.raw);
  return reply.send(body);
}

/**
 * Relays an upstream pass-through answer: status, content type and bytes as they come; the
 * upstream's request id goes in `x-gengate-upstream-request-id` (the gateway's own id stays the client's).
 */
export function sendPassthrough(
  reply: FastifyReply,
  response: { status: number; headers: Record<string, string>; upstreamRequestId?: string; body: Readable | Buffer },
): FastifyReply {
  reply.code(response.status);
  for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
  if (response.upstreamRequestId !== undefined) reply.header('x-gengate-upstream-request-id', response.upstreamRequestId);
  if (!Buffer.isBuffer(response.body)) coalesceWrites(response.body, reply.raw);
  return reply.send(response.body);
}

/**
 * An AbortSignal that fires when the client goes away before the response is complete, or when
 * the gateway's drain deadline passes (with the shutdown error as its reason), or when the
 * gateway cuts the call itself (`abortCall`, with the reason: a revoked key).
 */
export function clientSignal(request: FastifyRequest, reply: FastifyReply): AbortSignal {
  const call = callAbort();
  const shutdown = request.server.shutdownSignal;
  if (shutdown?.aborted) {
    call.abort(shutdown.reason);
    return call.signal;
  }
  const live = shutdown === undefined ? undefined : liveCalls(shutdown);
  live?.add(call);
  reply.raw.once('close', () => {
    live?.delete(call);
    if (!reply.raw.writableFinished) call.abort();
  });
  return call.signal;
}

/** Per shutdown signal, the calls in flight: one listener aborts them all (not one listener per call). */
const liveByShutdown = new WeakMap<AbortSignal, Set<CallAbort>>();

function liveCalls(shutdown: AbortSignal): Set<CallAbort> {
  let live = liveByShutdown.get(shutdown);
  if (!live) {
    const calls = new Set<CallAbort>();
    live = calls;
    liveByShutdown.set(shutdown, calls);
    shutdown.addEventListener(
      'abort',
      () => {
        for (const call of calls) call.abort(shutdown.reason);
        calls.clear();
      },
      { once: true },
    );
  }
  return live;
}

/** Installs a surface's error rendering on its encapsulated plugin. */
export function useErrorRenderer(app: FastifyInstance, render: ErrorRenderer): void {
  app.setErrorHandler((error, request, reply) => {
    replyWithError(request, reply, answerableError(error, request), render);
  });
}

/** The bearer token of an `Authorization` header, if any. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  return match ? match[1].trim() : undefined;
}

/** Warnings as one header value: `; `-separated, printable ASCII only, at most 2 KB. */
function warningsHeader(warnings: readonly string[]): string {
  const text = warnings.join('; ').replace(/[^\x20-\x7e]/g, '?');
  return text.length > 2048 ? `${text.slice(0, 2045)}...` : text;
}
