import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendUpstream } from './upstream-http.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/slow-headers') {
      setTimeout(() => res.end('late'), 2500);
    } else if (req.url === '/long-stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let sent = 0;
      const timer = setInterval(() => {
        res.write(`data: ${sent}\n\n`);
        if (++sent === 5) {
          clearInterval(timer);
          res.end();
        }
      }, 350);
    } else {
      res.end('ok');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const never = new AbortController().signal;

describe('sendUpstream', () => {
  it('gives up waiting for headers after the timeout, as a retryable timeout', async () => {
    // undici checks its timers about every half second, so the timeout fires between 1 and 1.5 s.
    await expect(sendUpstream({ url: `${base}/slow-headers`, method: 'GET', headers: {}, signal: never, timeoutMs: 1000 })).rejects.toMatchObject({
      kind: 'timeout',
      retryable: true,
    });
  });

  it('does not cut a stream that lasts longer than the timeout once headers arrived', async () => {
    const res = await sendUpstream({ url: `${base}/long-stream`, method: 'GET', headers: {}, signal: never, timeoutMs: 1000 });
    expect(await text(res.body)).toBe('data: 0\n\ndata: 1\n\ndata: 2\n\ndata: 3\n\ndata: 4\n\n');
  });

  it('reports an unreachable upstream as retryable and a client abort as final', async () => {
    await expect(sendUpstream({ url: 'http://127.0.0.1:1/', method: 'GET', headers: {}, signal: never, timeoutMs: 1000 })).rejects.toMatchObject({
      kind: 'upstream',
      retryable: true,
      code: 'upstream_unreachable',
    });
    const controller = new AbortController();
    const pending = sendUpstream({ url: `${base}/slow-headers`, method: 'GET', headers: {}, signal: controller.signal, timeoutMs: 5000 });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ retryable: false, code: 'client_closed' });
  });
});
