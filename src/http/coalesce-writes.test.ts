import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { coalesceWrites } from './coalesce-writes.js';

/** The socket-level writes (`_write` / `_writev` calls) a response made. */
function countSocketWrites(response: ServerResponse): () => number {
  const socket = response.socket as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
  let writes = 0;
  for (const name of ['_write', '_writev'] as const) {
    const original = socket[name];
    socket[name] = function (this: unknown, ...args: unknown[]) {
      writes++;
      return original.apply(this, args);
    };
  }
  return () => writes;
}

/** A body that pushes its chunks in one turn, then (next turn) one more and its end. */
function body(): Readable {
  const stream = new Readable({ read() {} });
  setImmediate(() => {
    for (const part of ['data: 1\n\n', 'data: 2\n\n', 'data: 3\n\n']) stream.push(part);
    setImmediate(() => {
      stream.push('data: [DONE]\n\n');
      stream.push(null);
    });
  });
  return stream;
}

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function serve(coalesce: boolean): Promise<{ text: string; writes: number }> {
  let writes = (): number => 0;
  const finished = new Promise<void>((resolve) => {
    const server = createServer((_request, response) => {
      writes = countSocketWrites(response);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const stream = body();
      if (coalesce) coalesceWrites(stream, response);
      stream.pipe(response);
      response.on('finish', () => resolve());
    });
    servers.push(server);
    server.listen(0, '127.0.0.1');
  });
  await new Promise((resolve) => servers[servers.length - 1].once('listening', resolve));
  const { port } = servers[servers.length - 1].address() as AddressInfo;
  const text = await (await fetch(`http://127.0.0.1:${port}/`)).text();
  await finished;
  return { text, writes: writes() };
}

describe('coalesceWrites', () => {
  it("sends what a body pushes in one turn in one socket write, its end with the turn's last chunk", async () => {
    const plain = await serve(false);
    const coalesced = await serve(true);
    expect(coalesced.text).toBe('data: 1\n\ndata: 2\n\ndata: 3\n\ndata: [DONE]\n\n');
    expect(plain.text).toBe(coalesced.text);
    // Headers and the first turn's three chunks, then the second turn's chunk with the chunked terminator.
    expect(coalesced.writes).toBe(2);
    expect(plain.writes).toBeGreaterThan(2);
  });
});
