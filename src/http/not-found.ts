import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { renderGeminiError } from '../surfaces/gemini/render-error.js';
import { renderOpenAIError } from '../surfaces/openai/render-error.js';

/** Unknown routes get a 404 in the dialect their path belongs to. */
export function registerNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) => {
    const error = new GatewayError('not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`, { code: 'unknown_route' });
    const render = request.url.startsWith('/v1beta/') ? renderGeminiError : renderOpenAIError;
    const rendered = render(error, String(request.id));
    reply.code(rendered.status).send(rendered.body);
  });
}
