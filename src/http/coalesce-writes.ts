/**
 * A streamed body's writes of one event-loop turn leave in one socket write. The response's
 * socket is corked when the body pushes its first chunk of a turn and uncorked at the end of
 * the turn, so events an upstream delivered together, and the chunked terminator written when
 * the body ends, cost one `writev` instead of one each (a system call is dear on a quiet server).
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';

export function coalesceWrites(body: Readable, response: ServerResponse): void {
  const push = body.push;
  let corked: Socket | undefined;
  const uncork = (): void => {
    corked?.uncork();
    corked = undefined;
  };
  body.push = function pushCoalesced(this: Readable, chunk: unknown, encoding?: BufferEncoding): boolean {
    if (corked === undefined) {
      const socket = response.socket;
      if (socket && !socket.destroyed) {
        socket.cork();
        corked = socket;
        setImmediate(uncork);
      }
    }
    return push.call(this, chunk, encoding);
  };
}
