/**
 * One HTTP request read to its end under a deadline, with what a client saw: status (0 when no
 * answer came: refused, cut, or the deadline passed), the gateway's request id, the body, and
 * how long it took — so a fault test can assert that nothing hung and nothing answered a 500.
 */

import { request as httpRequest } from 'node:http';

export interface BoundedResult {
  label: string;
  status: number;
  requestId?: string;
  body: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
  json?: any;
  /** When it was sent (epoch ms). */
  startedAt: number;
  ms: number;
  /** Why no answer came (status 0). */
  error?: string;
  /** The request was still unanswered at its deadline. */
  timedOut: boolean;
}

export async function boundedRequest(label: string, url: string, init: RequestInit, deadlineMs: number): Promise<BoundedResult> {
  const started = Date.now();
  const signal = AbortSignal.timeout(deadlineMs);
  try {
    const response = await fetch(url, { ...init, signal });
    const body = await response.text();
    let json: unknown;
    if ((response.headers.get('content-type') ?? '').includes('json')) {
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
    }
    return {
      label,
      status: response.status,
      requestId: response.headers.get('x-request-id') ?? undefined,
      body,
      json,
      startedAt: started,
      ms: Date.now() - started,
      timedOut: false,
    };
  } catch (error) {
    return {
      label,
      status: 0,
      body: '',
      startedAt: started,
      ms: Date.now() - started,
      error: String((error as Error).cause ?? error),
      timedOut: signal.aborted,
    };
  }
}

/** A Chat Completions call in the OpenAI dialect (streamed when `stream`). */
export function chatRequest(label: string, gatewayUrl: string, key: string, model: string, stream: boolean, deadlineMs: number): Promise<BoundedResult> {
  return boundedRequest(
    label,
    `${gatewayUrl}/v1/chat/completions`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, max_tokens: 12, stream, messages: [{ role: 'user', content: 'Say something about lighthouses.' }] }),
    },
    deadlineMs,
  );
}

/** Whether a chat answer is whole: a JSON completion with a finish reason, or a stream ended by `[DONE]` without an error. */
export function chatCompleted(result: BoundedResult): boolean {
  if (result.status !== 200) return false;
  if (result.body.startsWith('data:') || result.body.includes('\ndata:'))
    return result.body.trimEnd().endsWith('data: [DONE]') && !result.body.includes('"error"');
  return result.body.includes('"finish_reason"');
}

/**
 * `boundedRequest` over a connection of its own (no keep-alive), as clients behind an L4 balancer
 * spread: each request is a new connection, so the balancer chooses a backend for each.
 */
export function requestOnNewConnection(
  label: string,
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  deadlineMs: number,
): Promise<BoundedResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<BoundedResult, 'label' | 'startedAt' | 'ms'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ label, startedAt: started, ms: Date.now() - started, ...result });
    };
    const request = httpRequest(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => finish({ status: 0, body: Buffer.concat(chunks).toString('utf8'), error: String(error), timedOut: false }));
      response.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        if (String(response.headers['content-type'] ?? '').includes('json')) {
          try {
            json = JSON.parse(body);
          } catch {
            json = undefined;
          }
        }
        const requestId = response.headers['x-request-id'];
        finish({ status: response.statusCode ?? 0, requestId: typeof requestId === 'string' ? requestId : undefined, body, json, timedOut: false });
      });
      // A connection cut mid-body ends the response without 'end'.
      response.on('aborted', () =>
        finish({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), error: 'aborted', timedOut: false }),
      );
    });
    const timer = setTimeout(() => {
      request.destroy();
      finish({ status: 0, body: '', error: 'deadline', timedOut: true });
    }, deadlineMs);
    request.on('error', (error) => finish({ status: 0, body: '', error: String(error), timedOut: false }));
    request.end(init.body);
  });
}
