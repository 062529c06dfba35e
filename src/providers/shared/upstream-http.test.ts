import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAbort } from '../../core/call-abort.js';
import { sendUpstream } from './upstream-http.js';

async function until(what: string, check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 10) {
    if (waited > 3000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let server: Server;
/** Paths whose connection the client closed before the answer ended. */
const closedEarly: string[] = [];
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
    } else if (req.url === '/endless') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const timer = setInterval(() => res.write('data: more\n\n'), 10);
      res.on('close', () => {
        clearInterval(timer);
        closedEarly.push(req.url ?? '');
      });
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 120);
      let sent = 0;
      const write = (): void => {
        while (sent < 8 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', write);
        }
        res.end();
      };
      write();
    } else if (req.url === '/split-utf8') {
      // 'héllo 🌍' with each multi-byte character cut between two writes.
      const bytes = Buffer.from('héllo 🌍 '.repeat(3));
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      let at = 0;
      const timer = setInterval(() => {
        res.write(bytes.subarray(at, at + 3));
        at += 3;
        if (at >= bytes.length) {
          clearInterval(timer);
          res.end();
        }
      }, 2);
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

  it('closes the upstream connection when the body is destroyed before its end', async () => {
    const res = await sendUpstream({ url: `${base}/endless`, method: 'GET', headers: {}, signal: never, timeoutMs: 1000 });
    for await (const chunk of res.body) {
      expect(chunk.toString()).toContain('data: more');
      break;
    }
    await until('the upstream to see its connection closed', () => closedEarly.includes('/endless'));
    closedEarly.length = 0;
  });

  it("aborts the upstream request in the middle of its body when the call's signal aborts", async () => {
    const call = callAbort();
    const res = await sendUpstream({ url: `${base}/endless`, method: 'GET', headers: {}, signal: call.signal, timeoutMs: 1000 });
    const failed = new Promise((resolve) => res.body.on('error', resolve));
    res.body.resume();
    call.abort();
    await failed;
    await until('the upstream to see its connection closed', () => closedEarly.includes('/endless'));
    closedEarly.length = 0;
  });

  it('holds back an unread body near its high-water mark instead of buffering the whole answer', async () => {
    const res = await sendUpstream({ url: `${base}/big`, method: 'GET', headers: {}, signal: never, timeoutMs: 1000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(res.body.readableLength).toBeLessThanOrEqual(256 * 1024);
    let size = 0;
    for await (const chunk of res.body) size += chunk.length;
    expect(size).toBe(8 * 1024 * 1024);
  });

  it('reads a body as text whole, multi-byte characters cut between chunks included', async () => {
    const res = await sendUpstream({ url: `${base}/split-utf8`, method: 'GET', headers: {}, signal: never, timeoutMs: 1000 });
    expect(await res.body.text()).toBe('héllo 🌍 '.repeat(3));
  });

  it('rejects text() of a body destroyed before its end, with or without an error', async () => {
    const res = await sendUpstream({ url: `${base}/endless`, method: 'GET', headers: {}, signal: never, timeoutMs: 1000 });
    const reading = res.body.text();
    res.body.destroy();
    await expect(reading).rejects.toThrow('upstream body closed before its end');
    const call = callAbort();
    const aborted = await sendUpstream({ url: `${base}/endless`, method: 'GET', headers: {}, signal: call.signal, timeoutMs: 1000 });
    const abortedReading = aborted.body.text();
    call.abort();
    await expect(abortedReading).rejects.toThrow();
    await until('the upstream to see both connections closed', () => closedEarly.filter((path) => path === '/endless').length === 2);
    closedEarly.length = 0;
  });
});
