/**
 * Sends one result file of the caller's finished task the way video players and download tools
 * expect: `ETag`, `Accept-Ranges: bytes`, a single `Range` as `206` with `Content-Range`,
 * `416` (with the file's size in `Content-Range`) when no byte of it exists, `304` for a matching
 * `If-None-Match`, `Content-Disposition: attachment` with a file name, private caching. A
 * `HEAD` gets the same headers without reading the file. `render` shapes the 416, which is
 * answered here to keep its `Content-Range`.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import type { MediaRef, Task } from '../../core/task.js';
import type { StoredMedia } from '../../media/media-store.js';
import { replyWithError } from '../edge-errors.js';
import type { ErrorRenderer } from '../error-renderer.js';
import { contentRange, planByteRange, type RangePlan } from './byte-range.js';
import { entityTagOf, noneMatchHits, rangeStillApplies } from './entity-tag.js';
import type { TaskFileSource } from './task-file-source.js';
import { requireSucceeded, videoExpired } from './video-unavailable.js';

export interface TaskFile {
  /** Which of the task's result files. */
  index: number;
  /** Whether the file at `index` is the one asked for (a video, a thumbnail image). */
  accepts: (ref: MediaRef) => boolean;
  /** The error when the task has no such file. */
  absent: () => GatewayError;
  /** The name a download is saved as. */
  filename: (ref: MediaRef) => string;
  /** The task's status as the route's clients name it, for "not ready" errors. */
  statusWord: string;
}

export async function serveTaskFile(
  request: FastifyRequest,
  reply: FastifyReply,
  tasks: TaskFileSource,
  task: Task,
  file: TaskFile,
  render: ErrorRenderer,
): Promise<FastifyReply> {
  requireSucceeded(task, file.statusWord);
  const ref = task.result?.media[file.index];
  if (!ref || !file.accepts(ref)) throw file.absent();
  const tag = entityTagOf(ref);
  const notModified = noneMatchHits(header(request, 'if-none-match'), tag);
  const ranged = !notModified && rangeStillApplies(header(request, 'if-range'), tag);
  const plan = (size: number): RangePlan => (ranged ? planByteRange(header(request, 'range'), size) : { kind: 'whole' });

  let planned = plan(ref.bytes);
  let media = await open(tasks, task, file, planned);
  if (media.size !== ref.bytes && planned.kind !== 'whole') {
    // The file is not the size its record says: plan again against the real size.
    media.body.destroy();
    planned = plan(media.size);
    media = await open(tasks, task, file, planned);
  }

  reply.header('etag', tag);
  reply.header('cache-control', 'private');
  reply.header('accept-ranges', 'bytes');
  if (notModified) return sendEmpty(reply.code(304), media);
  if (planned.kind === 'unsatisfiable') {
    media.body.destroy();
    reply.header('content-range', `bytes */${media.size}`);
    const error = new GatewayError('invalid_request', `range: no byte of the requested range exists in this file of ${media.size} bytes`, {
      status: 416,
      code: 'range_not_satisfiable',
    });
    return replyWithError(request, reply, error, render);
  }
  reply.header('content-type', media.mediaType);
  reply.header('content-disposition', `attachment; filename="${file.filename(ref)}"`);
  reply.header('x-content-type-options', 'nosniff');
  if (planned.kind === 'partial') {
    reply.code(206);
    reply.header('content-range', contentRange(planned.range, media.size));
    reply.header('content-length', String(planned.range.end - planned.range.start + 1));
  } else {
    reply.header('content-length', String(media.size));
  }
  if (request.method === 'HEAD') return sendEmpty(reply, media);
  return reply.send(media.body);
}

async function open(tasks: TaskFileSource, task: Task, file: TaskFile, planned: RangePlan): Promise<StoredMedia> {
  const opened = await tasks.openResult(task, file.index, planned.kind === 'partial' ? planned.range : undefined);
  if (opened.kind !== 'found') throw opened.kind === 'expired' ? videoExpired(task) : file.absent();
  return opened.media;
}

function sendEmpty(reply: FastifyReply, media: StoredMedia): FastifyReply {
  media.body.destroy();
  return reply.send();
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
