/**
 * Bad input on every surface: the right status and the surface's own error shape, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from './helpers/json-bodies.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

let gw: RunningGateway;
let restricted: string;

beforeAll(async () => {
  gw = await startGateway({ bodyLimitBytes: 64 * 1024 });
  restricted = await gw.createKey({ name: 'only-b', models: ['textmodel-b-*'] });
});
afterAll(() => gw.close());

async function post(path: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; json: ErrorBody; headers: Headers }> {
  const res = await fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined, headers: res.headers };
}

const chatBody = { model: 'textmodel-b-4o', messages: [{ role: 'user', content: 'hi' }] };
const messagesBody = { model: 'textmodel-a-sonnet-4-20250514', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] };
const geminiBody = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };

function expectOpenAIError(json: ErrorBody, type: string): void {
  expect(Object.keys(json.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(json.error.type).toBe(type);
  expect(typeof json.error.message).toBe('string');
}

function expectAnthropicError(json: ErrorBody, type: string): void {
  expect(json.type).toBe('error');
  expect(json.error.type).toBe(type);
  expect(typeof json.error.message).toBe('string');
}

function expectGeminiError(json: ErrorBody, code: number, status: string): void {
  expect(json.error.code).toBe(code);
  expect(json.error.status).toBe(status);
  expect(typeof json.error.message).toBe('string');
}

describe('missing or bad key in each dialect', () => {
  it('OpenAI', async () => {
    const none = await post('/v1/chat/completions', chatBody, {});
    expect(none.status).toBe(401);
    expectOpenAIError(none.json, 'invalid_request_error');
    const bad = await post('/v1/chat/completions', chatBody, { authorization: 'Bearer gg-nope' });
    expect(bad.status).toBe(401);
    expect(bad.json.error.code).toBe('invalid_api_key');
  });

  it('Anthropic', async () => {
    const res = await post('/v1/messages', messagesBody, { 'x-api-key': 'wrong', 'anthropic-version': '2023-06-01' });
    expect(res.status).toBe(401);
    expectAnthropicError(res.json, 'authentication_error');
  });

  it('Gemini, as Google answers: a wrong key 400 API_KEY_INVALID, no key 403 PERMISSION_DENIED', async () => {
    const res = await post('/v1beta/models/textmodel-c-2.5-flash:generateContent?key=wrong', geminiBody, {});
    expect(res.status).toBe(400);
    expectGeminiError(res.json, 400, 'INVALID_ARGUMENT');
    expect((res.json.error as { details?: unknown[] }).details).toContainEqual({
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'API_KEY_INVALID',
      domain: 'googleapis.com',
      metadata: { service: 'generativelanguage.googleapis.com' },
    });
    const none = await post('/v1beta/models/textmodel-c-2.5-flash:generateContent', geminiBody, {});
    expect(none.status).toBe(403);
    expectGeminiError(none.json, 403, 'PERMISSION_DENIED');
  });
});

describe('model rules', () => {
  it('a key restricted to other models gets 403', async () => {
    const openai = await post('/v1/chat/completions', { ...chatBody, model: 'textmodel-c-2.5-pro' }, { authorization: `Bearer ${restricted}` });
    expect(openai.status).toBe(403);
    expect(Object.keys(openai.json.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(openai.json.error.message).toContain('textmodel-c-2.5-pro');
    const anthropic = await post('/v1/messages', messagesBody, { 'x-api-key': restricted });
    expect(anthropic.status).toBe(403);
    expectAnthropicError(anthropic.json, 'permission_error');
    const gemini = await post(`/v1beta/models/textmodel-c-2.5-flash:generateContent?key=${restricted}`, geminiBody, {});
    expect(gemini.status).toBe(403);
    expectGeminiError(gemini.json, 403, 'PERMISSION_DENIED');
    const allowed = await post('/v1/chat/completions', chatBody, { authorization: `Bearer ${restricted}` });
    expect(allowed.status).toBe(200);
  });

  it('an unknown model gets 404 naming the model', async () => {
    const openai = await post('/v1/chat/completions', { ...chatBody, model: 'no-such-model' }, { authorization: `Bearer ${gw.key}` });
    expect(openai.status).toBe(404);
    expect(openai.json.error.code).toBe('model_not_found');
    expect(openai.json.error.message).toContain('no-such-model');
    const anthropic = await post('/v1/messages', { ...messagesBody, model: 'no-such-model' }, { 'x-api-key': gw.key });
    expect(anthropic.status).toBe(404);
    expectAnthropicError(anthropic.json, 'not_found_error');
    const gemini = await post(`/v1beta/models/no-such-model:generateContent?key=${gw.key}`, geminiBody, {});
    expect(gemini.status).toBe(404);
    expectGeminiError(gemini.json, 404, 'NOT_FOUND');
  });
});

describe('invalid bodies → 400 naming the field', () => {
  const auth = () => ({ authorization: `Bearer ${gw.key}` });

  it('chat: temperature above 2, five stop sequences, wrong types, malformed JSON', async () => {
    const hot = await post('/v1/chat/completions', { ...chatBody, temperature: 2.5 }, auth());
    expect(hot.status).toBe(400);
    expectOpenAIError(hot.json, 'invalid_request_error');
    expect(hot.json.error.param).toBe('temperature');
    const stops = await post('/v1/chat/completions', { ...chatBody, stop: ['a', 'b', 'c', 'd', 'e'] }, auth());
    expect(stops.status).toBe(400);
    expect(stops.json.error.param).toBe('stop');
    const types = await post('/v1/chat/completions', { ...chatBody, messages: 'hello' }, auth());
    expect(types.status).toBe(400);
    expect(types.json.error.param).toBe('messages');
    const malformed = await post('/v1/chat/completions', '{"model": "x", ', auth());
    expect(malformed.status).toBe(400);
    expectOpenAIError(malformed.json, 'invalid_request_error');
    const empty = await post('/v1/chat/completions', '', auth());
    expect(empty.status).toBe(400);
  });

  it('messages: temperature above 1 and missing max_tokens', async () => {
    const hot = await post('/v1/messages', { ...messagesBody, temperature: 1.5 }, { 'x-api-key': gw.key });
    expect(hot.status).toBe(400);
    expectAnthropicError(hot.json, 'invalid_request_error');
    expect(hot.json.error.message).toContain('temperature');
    const { max_tokens: _omit, ...noMax } = messagesBody;
    const missing = await post('/v1/messages', noMax, { 'x-api-key': gw.key });
    expect(missing.status).toBe(400);
    expect(missing.json.error.message).toContain('max_tokens');
    const malformed = await post('/v1/messages', '[1,', { 'x-api-key': gw.key });
    expect(malformed.status).toBe(400);
    expectAnthropicError(malformed.json, 'invalid_request_error');
  });

  it('generateContent: contents of the wrong type, malformed JSON', async () => {
    const res = await post(`/v1beta/models/textmodel-c-2.5-flash:generateContent?key=${gw.key}`, { contents: 5 }, {});
    expect(res.status).toBe(400);
    expectGeminiError(res.json, 400, 'INVALID_ARGUMENT');
    expect(res.json.error.message).toContain('contents');
    const malformed = await post(`/v1beta/models/textmodel-c-2.5-flash:generateContent?key=${gw.key}`, '{', {});
    expect(malformed.status).toBe(400);
    expectGeminiError(malformed.json, 400, 'INVALID_ARGUMENT');
  });
});

describe('body over the configured limit → 413 before anything else', () => {
  const big = 'x'.repeat(70 * 1024);

  it('in each dialect', async () => {
    const openai = await post('/v1/chat/completions', { ...chatBody, messages: [{ role: 'user', content: big }] }, { authorization: `Bearer ${gw.key}` });
    expect(openai.status).toBe(413);
    expect(Object.keys(openai.json.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    const anthropic = await post('/v1/messages', { ...messagesBody, messages: [{ role: 'user', content: big }] }, { 'x-api-key': gw.key });
    expect(anthropic.status).toBe(413);
    expectAnthropicError(anthropic.json, 'request_too_large');
    const gemini = await post(`/v1beta/models/textmodel-c-2.5-flash:generateContent?key=${gw.key}`, { contents: [{ parts: [{ text: big }] }] }, {});
    expect(gemini.status).toBe(413);
    expect(gemini.json.error.code).toBe(413);
  });
});

describe('unknown routes', () => {
  it('404 in the dialect of the path', async () => {
    const res = await fetch(`${gw.url}/v1/nothing-here`, { headers: { authorization: `Bearer ${gw.key}` } });
    expect(res.status).toBe(404);
    const json = (await res.json()) as { error: Record<string, unknown> };
    expect(Object.keys(json.error).sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(json.error.message).toContain('/v1/nothing-here');
  });
});
