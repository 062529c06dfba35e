/**
 * Request bodies are JSON whatever the content type says (curl's `-d` sends
 * application/x-www-form-urlencoded). Parsed with the plain JSON.parse: the gateway never
 * merges client objects into others, so prototype-poisoning scans would only cost time.
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors.js';

export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.length === 0) {
      done(null, undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(new GatewayError('invalid_request', `malformed JSON body: ${(error as Error).message}`), undefined);
    }
  });
}
