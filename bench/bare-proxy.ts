/**
 * The least a Node.js gateway can do: node:http in, parse the JSON body, rewrite `model`,
 * undici out over a keep-alive pool, pipe the answer back. No auth, routing, metering or
 * error mapping. Measured beside gengate, it shows how much of the distance to the mock is
 * Node's own HTTP cost on this machine and how much is gengate's.
 *
 * Run alone: `node --import tsx bench/bare-proxy.ts --port=N --upstream=http://127.0.0.1:M`;
 * prints `{"port":N}` once listening.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const FORWARDED = ['authorization', 'x-api-key', 'anthropic-version', 'content-type'];

export function createBareProxy(upstream: string) {
  const pool = new Pool(upstream, { connections: 256, pipelining: 1, keepAliveTimeout: 30_000 });
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/healthz') {
      response.writeHead(200).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        response.writeHead(400, { 'content-type': 'application/json' }).end('{"error":{"message":"body is not JSON"}}');
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of FORWARDED) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      if (typeof body.model === 'string') body.model = body.model.replace(/^textmodel-b-/, 'gpt-');
      pool
        .request({ method: 'POST', path: request.url ?? '/', headers, body: JSON.stringify(body) })
        .then((answer) => {
          const contentType = answer.headers['content-type'];
          response.writeHead(answer.statusCode, typeof contentType === 'string' ? { 'content-type': contentType } : {});
          answer.body.pipe(response);
        })
        .catch((error: Error) => {
          response.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: error.message } }));
        });
    });
  });
  server.keepAliveTimeout = 65_000;
  return { server, close: () => Promise.all([new Promise((resolve) => server.close(resolve)), pool.close()]) };
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, upstream: { type: 'string' } } });
  if (!values.upstream) throw new Error('--upstream is required');
  const { server } = createBareProxy(values.upstream);
  server.listen(Number(values.port), '127.0.0.1', () => {
    process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
  });
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => process.exit(0));
}
