/**
 * Hostile input against the sandbox through the whole gateway (issue 8, findings 1, 2 and 15):
 * the process answers clearly and stays responsive.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

let gw: RunningGateway;

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${gw.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${gw.key}`, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

async function healthy(): Promise<boolean> {
  const response = await fetch(`${gw.url}/healthz`);
  return response.status === 200;
}

describe('hostile input against the sandbox', () => {
  it('finding 1: a tool schema with minItems 1e9 answers a clear 400 and does not crash', async () => {
    const { status, json } = await post('/v1/chat/completions', {
      model: 'textmodel-b-4o',
      messages: [{ role: 'user', content: 'hi' }],
      tools: [
        {
          type: 'function',
          function: {
            name: 'f',
            parameters: { type: 'object', properties: { a: { type: 'array', minItems: 1_000_000_000, items: { type: 'integer' } } }, required: ['a'] },
          },
        },
      ],
      tool_choice: 'required',
    });
    expect(status).toBe(400);
    expect(json.error).toMatchObject({
      type: 'invalid_request_error',
      param: 'tools',
      message:
        'tools: the sandbox cannot generate arguments for the tool "f" at a: minItems 1000000000 is more than the 100 items the sandbox generates in an array',
    });
    expect(await healthy()).toBe(true);
  });

  it('finding 2: count_tokens of 1 MB without spaces answers a close count and the gateway stays responsive', async () => {
    const counting = post(
      '/v1/messages/count_tokens',
      { model: 'textmodel-a-opus-4-5-20251101', messages: [{ role: 'user', content: 'r'.repeat(1_000_000) }] },
      { 'x-api-key': gw.key, 'anthropic-version': '2023-06-01' },
    );
    const [counted, health] = await Promise.all([counting, healthy()]);
    expect(health).toBe(true);
    expect(counted.status).toBe(200);
    // "rrrr" is one o200k token; the message adds 3.
    expect(counted.json).toEqual({ input_tokens: 250_003 });
  });

  it('finding 15: identical chat requests get different ids', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key });
    const request = { model: 'textmodel-b-4o', messages: [{ role: 'user' as const, content: 'same question' }] };
    const [a, b] = [await client.chat.completions.create(request), await client.chat.completions.create(request)];
    expect(b.choices[0].message.content).toBe(a.choices[0].message.content);
    expect(b.id).not.toBe(a.id);
  });

  it('finding 15: sandbox embeddings have the model’s real dimension, or the one asked for', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key });
    const small = await client.embeddings.create({ model: 'text-embedding-3-small', input: 'hello' });
    expect(small.data[0].embedding).toHaveLength(1536);
    const shortened = await client.embeddings.create({ model: 'text-embedding-3-large', input: 'hello', dimensions: 512 });
    expect(shortened.data[0].embedding).toHaveLength(512);
  });
});
