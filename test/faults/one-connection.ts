/**
 * Requests on a fresh connection each (no keep-alive), so that a cluster's round robin hands
 * successive requests to different workers; what came back, with the gateway's request id.
 */
import { request } from 'node:http';

export interface Answer {
  status: number;
  requestId: string;
  body: string;
}

export interface Pending {
  /** Resolves once the status line and headers arrived. */
  headers: Promise<{ status: number; requestId: string }>;
  /** Resolves with the whole answer; rejects when the connection is cut. */
  answer: Promise<Answer>;
}

export function open(url: string, path: string, key: string, body: unknown): Pending {
  let onHeaders!: (value: { status: number; requestId: string }) => void;
  let failHeaders!: (error: Error) => void;
  const headers = new Promise<{ status: number; requestId: string }>((resolve, reject) => {
    onHeaders = resolve;
    failHeaders = reject;
  });
  const answer = new Promise<Answer>((resolve, reject) => {
    const req = request(
      `${url}${path}`,
      { method: body === undefined ? 'DELETE' : 'POST', agent: false, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } },
      (res) => {
        const requestId = String(res.headers['x-request-id'] ?? '');
        onHeaders({ status: res.statusCode ?? 0, requestId });
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, requestId, body: text }));
        res.on('error', reject);
        res.on('aborted', () => reject(new Error('connection cut')));
      },
    );
    req.on('error', (error) => {
      failHeaders(error);
      reject(error);
    });
    if (body === undefined) req.end();
    else req.end(JSON.stringify(body));
  });
  answer.catch(() => undefined);
  headers.catch(() => undefined);
  return { headers, answer };
}

export function send(url: string, path: string, key: string, body?: unknown): Promise<Answer> {
  return open(url, path, key, body).answer;
}

export const chat = (stream = false, maxTokens = 8) => ({
  model: 'textmodel-b-4o-mini',
  max_tokens: maxTokens,
  stream,
  messages: [{ role: 'user', content: 'Tell me about lighthouses.' }],
});
