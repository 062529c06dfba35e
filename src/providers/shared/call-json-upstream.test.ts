import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { callJsonUpstream, type JsonCall } from './call-json-upstream.js';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/ok') res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":"a"}');
    else if (req.url === '/empty') res.writeHead(204).end();
    else if (req.url === '/big') res.end(JSON.stringify({ pad: 'x'.repeat(5_000) }));
    else if (req.url === '/not-json') res.end('<html>');
    else if (req.url === '/error') res.writeHead(400, { 'content-type': 'application/json' }).end('{"detail":"no"}');
    else if (req.url === '/error-text') res.writeHead(502).end('Bad Gateway');
    else if (req.url === '/broken') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"id":', () => res.destroy());
    } else if (req.url === '/stall') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"id":');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const callOptions = (): JsonCall => ({
  vendor: 'Vendor',
  url: `${base}/ok`,
  method: 'GET',
  headers: {},
  signal: new AbortController().signal,
  timeoutMs: 2_000,
  maxBytes: 1_000,
  mapError: (status, body, _headers, text) => new GatewayError('upstream', `mapped ${status} ${JSON.stringify(body)} ${text}`, { upstreamStatus: status }),
});

const call = (path: string, extra: Partial<JsonCall> = {}) => callJsonUpstream({ ...callOptions(), url: `${base}${path}`, ...extra });

describe('callJsonUpstream', () => {
  it('answers the status and the parsed body; an empty body is undefined', async () => {
    expect(await call('/ok')).toMatchObject({ status: 201, json: { id: 'a' } });
    expect(await call('/empty')).toMatchObject({ status: 204, json: undefined });
  });

  it('hands error answers to the mapper (JSON or text), or back to the caller for the statuses it reads', async () => {
    await expect(call('/error')).rejects.toMatchObject({ message: 'mapped 400 {"detail":"no"} {"detail":"no"}' });
    await expect(call('/error-text')).rejects.toMatchObject({ message: 'mapped 502 "Bad Gateway" Bad Gateway' });
    expect(await call('/error', { readStatuses: [400] })).toMatchObject({ status: 400, json: { detail: 'no' } });
  });

  it('refuses a body over the cap or not JSON, as retryable upstream faults', async () => {
    await expect(call('/big')).rejects.toMatchObject({ kind: 'upstream', retryable: true, message: "Vendor's answer is larger than 1000 bytes" });
    await expect(call('/not-json')).rejects.toMatchObject({ kind: 'upstream', retryable: true, message: 'Vendor answered with invalid JSON' });
  });

  it('an answer that breaks off, or a connection never made, is a retryable upstream fault', async () => {
    await expect(call('/broken')).rejects.toMatchObject({ kind: 'upstream', retryable: true, message: "Vendor's answer broke off" });
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(callJsonUpstream({ ...callOptions(), url: `http://127.0.0.1:${port}/ok` })).rejects.toMatchObject({ kind: 'upstream', retryable: true });
  });

  it('cuts an answer that stalls mid-body at the deadline, without naming the host', async () => {
    const error = await call('/stall', { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'timeout', retryable: true, message: 'Vendor did not answer within 200 ms' });
  });
});
