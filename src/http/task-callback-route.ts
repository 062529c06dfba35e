/**
 * `POST /tasks/callback/:token`: where upstreams (Replicate webhooks and the like) report on a
 * task. The token is the task's unguessable callback capability; the vendor's signature is
 * checked where it signs; the body is never trusted for state or billing — a good callback
 * only makes the engine poll the task at once.
 */
import type { FastifyInstance } from 'fastify';

type TaskWaker = (token: string, headers: Record<string, string | string[] | undefined>, body: Buffer) => Promise<boolean>;

const MAX_CALLBACK_BYTES = 1024 * 1024;
const TOKEN = /^[A-Za-z0-9]{16,64}$/;

/** MiniMax first checks a callback URL by posting `{challenge}` and expecting it echoed within seconds. */
function challengeOf(body: Buffer): string | undefined {
  if (body.length === 0 || body.length > 4096) return undefined;
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' && parsed.challenge.length <= 1024 ? parsed.challenge : undefined;
  } catch {
    return undefined;
  }
}

export function registerTaskCallbackRoute(app: FastifyInstance, wake: TaskWaker): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_CALLBACK_BYTES }, (_request, body, done) => done(null, body));
    scope.post<{ Params: { token: string } }>('/tasks/callback/:token', async (request, reply) => {
      const { token } = request.params;
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const accepted = TOKEN.test(token) && (await wake(token, request.headers, body));
      if (!accepted) {
        const error = {
          message: 'No such task callback, or its signature does not verify.',
          type: 'invalid_request_error',
          param: null,
          code: 'callback_not_found',
        };
        return reply.code(404).send({ error });
      }
      const challenge = challengeOf(body);
      return challenge === undefined ? reply.code(204).send() : reply.code(200).send({ challenge });
    });
  });
}
