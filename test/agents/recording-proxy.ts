/**
 * A reverse proxy on 127.0.0.1 between an agent and the gateway that records every request the
 * agent sends (method, path with query, status the gateway answered, whether it asked for a
 * stream, and the body's JSON when it has one) and streams the bytes through untouched. The
 * agent tests use it to assert that no request got a 4xx or 5xx from the gateway and to list
 * which routes each agent uses.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer } from '../fakes/fake-http.js';

export interface ProxiedRequest {
  method: string;
  path: string;
  status: number;
  /** The request body parsed as JSON, when it was JSON. */
  body: Record<string, unknown> | undefined;
  /** The start of the answer's body when its status was 4xx or 5xx (the gateway's error). */
  errorText?: string;
}

export interface RecordingProxy {
  url: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

const BODY_KEPT = 4 * 1024 * 1024;

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const requests: ProxiedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_KEPT) chunks.push(chunk);
    });
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: Record<string, unknown> | undefined;
      try {
        const parsed: unknown = raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
      } catch {
        body = undefined;
      }
      const record: ProxiedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', status: 0, body };
      requests.push(record);
      const headers = { ...req.headers, host: upstream.host };
      const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers }, (answer) => {
        record.status = answer.statusCode ?? 0;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (record.status >= 400) {
          let text = '';
          answer.on('data', (chunk: Buffer) => {
            if (text.length < 2000) text += chunk.toString('utf8');
            record.errorText = text.slice(0, 2000);
          });
        }
        answer.pipe(res);
      });
      forward.on('error', (error) => {
        record.status = 502;
        record.errorText = `proxy: ${error.message}`;
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(`proxy: ${error.message}`);
      });
      forward.end(raw);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => closeServer(server) };
}
