import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/observability/logger.js';
import { type RunningGateway, startGateway } from './helpers/start-gateway.js';

const lines: Array<Record<string, unknown>> = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    for (const text of String(chunk).split('\n')) if (text.trim() !== '') lines.push(JSON.parse(text));
    done();
  },
});

let running: RunningGateway;

beforeAll(async () => {
  // Every simulated upstream answers 503 (an injected failure).
  running = await startGateway({ accessLog: true, sandbox: { failureRate: 1 }, logger: pino(loggerOptions('info'), sink) });
});
afterAll(() => running.close());

async function accessLine(path: string): Promise<Record<string, unknown>> {
  for (let i = 0; i < 100; i++) {
    const line = lines.find((entry) => entry.msg === 'request' && entry.url === path);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no access line for ${path}`);
}

async function post(path: string, key: string, body: unknown): Promise<number> {
  const response = await fetch(`${running.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('the access log line of a failed request', () => {
  it('names the error type: a refused key (before any call) is the client’s', async () => {
    expect(await post('/v1/chat/completions', 'gg-not-a-key', { model: 'm', messages: [] })).toBe(401);
    expect(await accessLine('/v1/chat/completions')).toMatchObject({ status: 401, errorType: 'client.auth' });
  });

  it('names the error type of a call the upstream failed', async () => {
    lines.length = 0;
    const status = await post('/v1/chat/completions', running.key, { model: 'textmodel-b-4o', messages: [{ role: 'user', content: 'hi' }] });
    expect(status).toBe(503);
    expect(await accessLine('/v1/chat/completions')).toMatchObject({ status: 503, errorType: 'upstream.overloaded' });
  });

  it('has no error type for a success', async () => {
    const response = await fetch(`${running.url}/v1/models`, { headers: { authorization: `Bearer ${running.key}` } });
    expect(response.status).toBe(200);
    const line = await accessLine('/v1/models');
    expect(line.status).toBe(200);
    expect(line).not.toHaveProperty('errorType');
  });
});
