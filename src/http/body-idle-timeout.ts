/**
 * A request whose body stops arriving is cut after `bodyIdleTimeoutMs` without a byte, well
 * before the whole-request deadline (which has to leave room for large uploads on slow links).
 * The socket gets an idle timeout while the body is read and none once the request is in, so
 * a slow answer is never cut by it; Node closes a socket that times out with no other handler.
 */
import type { FastifyInstance } from 'fastify';

export function installBodyIdleTimeout(app: FastifyInstance, bodyIdleTimeoutMs: number): void {
  if (bodyIdleTimeoutMs <= 0) return;
  app.addHook('onRequest', (request, _reply, done) => {
    const headers = request.headers;
    const hasBody = headers['transfer-encoding'] !== undefined || (headers['content-length'] !== undefined && headers['content-length'] !== '0');
    if (hasBody) request.raw.socket?.setTimeout(bodyIdleTimeoutMs);
    done();
  });
  app.addHook('preHandler', (request, _reply, done) => {
    request.raw.socket?.setTimeout(0);
    done();
  });
}
