/** The attempt's trace context reaches the upstream on both HTTP paths: chat/embeddings/images and the task vendors' JSON calls. */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { withUpstreamTraceHeaders } from '../../observability/upstream-trace-headers.js';
import { callJsonUpstream } from './call-json-upstream.js';
import { sendUpstream } from './upstream-http.js';

let server: Server;
let base: string;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const TRACEPARENT = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

const json = async (signal: AbortSignal): Promise<void> => {
  await callJsonUpstream({
    vendor: 'Vendor',
    url: `${base}/task`,
    method: 'POST',
    headers: { authorization: 'Bearer k' },
    body: {},
    signal,
    timeoutMs: 2_000,
    maxBytes: 1_000,
    mapError: () => new GatewayError('upstream', 'no'),
  });
};

const raw = async (signal: AbortSignal): Promise<void> => {
  const response = await sendUpstream({ url: `${base}/chat`, headers: { authorization: 'Bearer k' }, body: '{}', signal, timeoutMs: 2_000 });
  await response.body.text();
};

describe('upstream trace headers', () => {
  it.each([
    ['a JSON vendor call', json],
    ['a direct upstream request', raw],
  ])('sends the running attempt’s traceparent on %s, and none outside an attempt', async (_name, send) => {
    seen.length = 0;
    const signal = new AbortController().signal;
    await withUpstreamTraceHeaders(signal, { traceparent: TRACEPARENT }, () => send(signal));
    await send(signal);
    await withUpstreamTraceHeaders(new AbortController().signal, { traceparent: TRACEPARENT }, () => send(signal));
    expect(seen.map((headers) => [headers.traceparent, headers.authorization])).toEqual([
      [TRACEPARENT, 'Bearer k'],
      [undefined, 'Bearer k'],
      [undefined, 'Bearer k'],
    ]);
  });
});
