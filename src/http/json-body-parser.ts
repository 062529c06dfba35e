/**
 * Request bodies are JSON whatever the content type says (curl's `-d` sends
 * application/x-www-form-urlencoded). Parsed with the plain JSON.parse: the gateway never
 * merges client objects into others, so prototype-poisoning scans would only cost time.
 * Bodies nested deeper than `maxDepth` are refused before parsing (one linear scan), so no
 * later walk of the value — validation, error messages, translation — can run out of stack.
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { jsonNestsDeeperThan } from './json-depth.js';

const DEFAULT_MAX_BODY_DEPTH = 256;

export function installJsonBodyParser(app: FastifyInstance, maxDepth = DEFAULT_MAX_BODY_DEPTH): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = body as string;
    if (text.length === 0) {
      done(null, undefined);
      return;
    }
    if (jsonNestsDeeperThan(text, maxDepth)) {
      done(new GatewayError('invalid_request', `request body is nested more than ${maxDepth} levels deep`, { code: 'body_too_deep' }), undefined);
      return;
    }
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(new GatewayError('invalid_request', `malformed JSON body: ${(error as Error).message}`), undefined);
    }
  });
}
