/**
 * `GET /media/:name` serves what the media store keeps (image results). The name is the
 * capability: 190 random bits, expiring with the retention; no API key is needed, so links
 * work in browsers and `<img>` tags like the upstream links they replace.
 *
 * A stored file never changes and its name is never reused, so the name is its strong `ETag`:
 * `If-None-Match` gets `304`, a single `Range` gets `206` (`If-Range` honoured), one past the
 * end `416`; `HEAD` answers the headers alone. When the store signs links of its own (object
 * storage with `media.s3.presignSeconds`), a download is a `302` to that short-lived link instead
 * of bytes through the gateway; the existence and expiry checks and the `304` stay here.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors.js';
import type { MediaStore, StoredMedia } from '../media/media-store.js';
import { replyWithError } from './edge-errors.js';
import type { ErrorFamilies } from './error-family.js';
import { contentRange, planByteRange, type RangePlan } from './video-files/byte-range.js';
import { noneMatchHits, rangeStillApplies } from './video-files/entity-tag.js';

export function registerMediaRoutes(app: FastifyInstance, media: MediaStore, families: ErrorFamilies): void {
  app.route<{ Params: { name: string } }>({
    method: ['GET', 'HEAD'],
    url: '/media/:name',
    handler: async (request, reply) => {
      const name = request.params.name;
      const stored = await media.open(name);
      if (!stored) return notFound(request, reply, families);
      const tag = `"${name}"`;
      reply.header('etag', tag);
      reply.header('cache-control', `private, max-age=${Math.max(0, Math.floor((stored.expiresAt - Date.now()) / 1000))}`);
      reply.header('accept-ranges', 'bytes');
      reply.header('x-content-type-options', 'nosniff');
      if (noneMatchHits(header(request, 'if-none-match'), tag)) return sendEmpty(reply.code(304), stored);

      const redirect = request.method === 'GET' ? await media.presignedUrl?.(name, stored.expiresAt) : undefined;
      if (redirect) {
        stored.body.destroy();
        // The signed link outlives nothing: a cached redirect would point at a dead link.
        reply.header('cache-control', 'no-store');
        return reply.redirect(redirect, 302);
      }

      const planned: RangePlan = rangeStillApplies(header(request, 'if-range'), tag) ? planByteRange(header(request, 'range'), stored.size) : { kind: 'whole' };
      if (planned.kind === 'unsatisfiable') {
        stored.body.destroy();
        reply.header('content-range', `bytes */${stored.size}`);
        const error = new GatewayError('invalid_request', `range: no byte of the requested range exists in this file of ${stored.size} bytes`, {
          status: 416,
          code: 'range_not_satisfiable',
        });
        return replyWithError(request, reply, error, families.fallback);
      }
      reply.header('content-type', stored.mediaType);
      if (planned.kind === 'whole') {
        reply.header('content-length', String(stored.size));
        return request.method === 'HEAD' ? sendEmpty(reply, stored) : reply.send(stored.body);
      }
      stored.body.destroy();
      const part = await media.open(name, planned.range);
      if (!part) return notFound(request, reply, families);
      reply.code(206);
      reply.header('content-range', contentRange(planned.range, stored.size));
      reply.header('content-length', String(planned.range.end - planned.range.start + 1));
      return request.method === 'HEAD' ? sendEmpty(reply, part) : reply.send(part.body);
    },
  });
}

function notFound(request: FastifyRequest, reply: FastifyReply, families: ErrorFamilies): FastifyReply {
  const error = new GatewayError('not_found', 'No such media, or its link has expired.', { code: 'media_not_found' });
  return replyWithError(request, reply, error, families.fallback);
}

function sendEmpty(reply: FastifyReply, stored: StoredMedia): FastifyReply {
  stored.body.destroy();
  return reply.send();
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
