/**
 * What every call passes before any upstream is asked: the key is checked on the headers
 * before the body is read, the key's model list applies on every route, and a model serves
 * only the operations the catalog gives it.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from './helpers/json-bodies.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

let gw: RunningGateway;
let onlyB: string;

beforeAll(async () => {
  gw = await startGateway();
  onlyB = await gw.createKey({ name: 'only-b', models: ['textmodel-b-*'] });
});
afterAll(() => gw.close());

async function post(path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; json: ErrorBody & { input_tokens?: number } }> {
  const res = await fetch(`${gw.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

/** Sends headers announcing a large body, then only a little of it; resolves with the first response bytes. */
function answerBeforeBody(path: string, headers: string): Promise<string> {
  const { port } = new URL(gw.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer before the body; received ${JSON.stringify(received)}`));
    }, 3_000);
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
      if (received.includes('\r\n\r\n')) {
        clearTimeout(timer);
        socket.destroy();
        resolve(received);
      }
    });
    socket.on('error', reject);
    socket.write(
      `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 26214400\r\n${headers}\r\n{"model":"textmodel-b-4o",`,
    );
  });
}

describe('finding 4: the key is checked before the body is read', () => {
  it.each([
    ['/v1/chat/completions', 'authorization: Bearer gg-wrong\r\n'],
    ['/v1/messages', 'x-api-key: wrong\r\nanthropic-version: 2023-06-01\r\n'],
    ['/v1beta/models/textmodel-c-2.5-flash:generateContent', 'x-goog-api-key: wrong\r\n'],
    ['/v1/embeddings', ''],
    ['/imagegen2/remix', 'authorization: Bearer nope\r\n'],
    ['/v1/images/edits', 'authorization: Bearer nope\r\n'],
  ])('%s answers 401 while a 25 MB body is still announced', async (path, headers) => {
    const head = await answerBeforeBody(path, headers);
    expect(head.split('\r\n')[0]).toMatch(/^HTTP\/1\.1 (401|400)/);
  });
});

describe('finding 9: a model serves only its catalog operations', () => {
  const bearer = () => ({ authorization: `Bearer ${gw.key}` });

  it('an image generation with a chat model is a 400 naming the model and the operation', async () => {
    const res = await post('/v1/images/generations', { model: 'textmodel-b-4o', prompt: 'a cat' }, bearer());
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain('textmodel-b-4o');
    expect(res.json.error.message).toContain('image generation');
  });

  it('embeddings with a chat model are a 400', async () => {
    const res = await post('/v1/embeddings', { model: 'textmodel-b-4o', input: 'hello' }, bearer());
    expect(res.status).toBe(400);
    expect(res.json.error.message).toContain('embeddings');
  });

  it('generateContent on an image model or an embedding model is a Gemini 400', async () => {
    for (const model of ['imagegen1-pro', 'text-embedding-004']) {
      const res = await post(`/v1beta/models/${model}:generateContent`, { contents: [{ parts: [{ text: 'hi' }] }] }, { 'x-goog-api-key': gw.key });
      expect(res.status).toBe(400);
      expect(res.json.error.status).toBe('INVALID_ARGUMENT');
      expect(res.json.error.message).toContain(model);
    }
  });

  it('a chat answer with a chat model still works', async () => {
    const res = await post('/v1/chat/completions', { model: 'textmodel-b-4o', messages: [{ role: 'user', content: 'hi' }] }, bearer());
    expect(res.status).toBe(200);
  });
});

describe('finding 10: count_tokens applies the key’s model list and knows its models', () => {
  const anthropic = (key: string) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01' });
  const body = (model: string) => ({ model, messages: [{ role: 'user', content: 'hello there' }] });

  it('refuses an unknown model with a 404', async () => {
    const res = await post('/v1/messages/count_tokens', body('textmodel-z-unknown'), anthropic(gw.key));
    expect(res.status).toBe(404);
    expect(res.json.type).toBe('error');
    expect(res.json.error.type).toBe('not_found_error');
  });

  it('refuses a model outside the key’s list with a 403', async () => {
    const res = await post('/v1/messages/count_tokens', body('textmodel-a-sonnet-4-20250514'), anthropic(onlyB));
    expect(res.status).toBe(403);
    expect(res.json.error.type).toBe('permission_error');
  });

  it('counts for a model the key may use', async () => {
    const res = await post('/v1/messages/count_tokens', body('textmodel-b-4o'), anthropic(onlyB));
    expect(res.status).toBe(200);
    expect(res.json.input_tokens).toBeGreaterThan(0);
  });
});
