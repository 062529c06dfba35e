/**
 * `GET /v1/videos/:id/download` (and `HEAD`): the spec's download route, serving the caller's
 * finished video task of any video family, in a scope of its own beside the media routes. The
 * key comes as `Authorization: Bearer`; errors in the fallback (OpenAI) shape, as every video
 * surface's `video_url` points here.
 */
import type { FastifyInstance } from 'fastify';
import { type Authenticator, authenticateFirst, requestKey } from '../authenticate-first.js';
import type { ErrorRenderer } from '../error-renderer.js';
import { bearerToken, useErrorRenderer } from '../reply-helpers.js';
import { findVideo } from './find-video.js';
import { serveTaskFile } from './serve-task-file.js';
import type { TaskFileSource } from './task-file-source.js';
import { videoFile } from './video-file.js';

interface VideoDownloadDeps {
  authenticate: Authenticator;
  tasks: TaskFileSource;
  render: ErrorRenderer;
}

export function registerVideoDownloadRoute(app: FastifyInstance, { authenticate, tasks, render }: VideoDownloadDeps): void {
  app.register(async (scope) => {
    useErrorRenderer(scope, render);
    authenticateFirst(scope, authenticate, bearerToken);
    scope.route<{ Params: { id: string } }>({
      method: ['GET', 'HEAD'],
      url: '/v1/videos/:id/download',
      handler: async (request, reply) => {
        const task = await findVideo(tasks, requestKey(request), request.params.id);
        return serveTaskFile(request, reply, tasks, task, videoFile(task, task.status), render);
      },
    });
  });
}
