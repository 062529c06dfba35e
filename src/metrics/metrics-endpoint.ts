/**
 * Where `/metrics` is served: on the main port behind a bearer token (compared in constant
 * time), and/or on a listener of its own that serves nothing else (no token: its address is the
 * protection, loopback unless configured otherwise).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export type RenderMetrics = () => Promise<string>;

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Whether the `Authorization` header carries the token (hashes compared, so lengths leak nothing). */
export function tokenMatches(header: string | undefined, expected: Buffer): boolean {
  if (header === undefined || header.length > 4096) return false;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  return match !== null && timingSafeEqual(digest(match[1]), expected);
}

export function registerMetricsRoute(http: FastifyInstance, token: string, render: RenderMetrics): void {
  const expected = digest(token);
  http.get('/metrics', async (request, reply) => {
    if (!tokenMatches(request.headers.authorization, expected)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .type('application/json; charset=utf-8')
        .send({ error: { message: 'The metrics token is missing or wrong.', type: 'authentication_error', code: 'invalid_metrics_token' } });
    }
    return reply
      .header('cache-control', 'no-store')
      .type(METRICS_CONTENT_TYPE)
      .send(await render());
  });
}

/** Starts the metrics listener; resolves with the server once it listens (its port, when 0 was asked). */
export function listenForMetrics(address: { host: string; port: number }, render: RenderMetrics, onError: (error: unknown) => void): Promise<Server> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Only GET /metrics is served here.\n');
      return;
    }
    render().then(
      (text) =>
        response.writeHead(200, { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' }).end(request.method === 'HEAD' ? undefined : text),
      (error: unknown) => {
        onError(error);
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('metrics unavailable\n');
      },
    );
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      server.on('error', onError);
      resolve(server);
    });
  });
}
