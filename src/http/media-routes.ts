/**
 * `GET /media/:name` serves what the media store keeps (image results). The name is the
 * capability: 190 random bits, expiring with the retention; no API key is needed, so links
 * work in browsers and `<img>` tags like the upstream links they replace.
 */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors.js';
import type { MediaStore } from '../media/media-store.js';
import { replyWithError } from './edge-errors.js';
import type { ErrorFamilies } from './error-family.js';

export function registerMediaRoutes(app: FastifyInstance, media: MediaStore, families: ErrorFamilies): void {
  app.get<{ Params: { name: string } }>('/media/:name', async (request, reply) => {
    const stored = await media.open(request.params.name);
    if (!stored) {
      return replyWithError(
        request,
        reply,
        new GatewayError('not_found', 'No such media, or its link has expired.', { code: 'media_not_found' }),
        families.fallback,
      );
    }
    const maxAge = Math.max(0, Math.floor((stored.expiresAt - Date.now()) / 1000));
    reply.header('content-type', stored.mediaType);
    reply.header('content-length', String(stored.size));
    reply.header('cache-control', `private, max-age=${maxAge}`);
    reply.header('x-content-type-options', 'nosniff');
    return reply.send(stored.body);
  });
}
