/**
 * The mock must speak each dialect well enough that the official SDKs parse it, and must
 * carry exactly the configured size. Expected texts are written out here, not taken from
 * the mock's own helpers.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMockArgs, startMockUpstream, type RunningMock } from './mock-upstream.js';

const TEN_TOKENS = 'lorem ipsum dolor sit amet consectetur adipiscing elit lorem ipsum';

describe('mock upstream, unpaced', () => {
  let mock: RunningMock;
  let base: string;
  beforeAll(async () => {
    mock = await startMockUpstream({ size: 10, embeddingDims: 8, apiKey: 'mock-key' });
    base = `http://127.0.0.1:${mock.port}`;
  });
  afterAll(() => mock.close());

  const openai = () => new OpenAI({ baseURL: `${base}/v1`, apiKey: 'mock-key', maxRetries: 0 });

  it('answers an OpenAI chat completion the SDK parses', async () => {
    const completion = await openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(completion.object).toBe('chat.completion');
    expect(completion.choices[0].message).toMatchObject({ role: 'assistant', content: TEN_TOKENS });
    expect(completion.choices[0].finish_reason).toBe('stop');
    expect(completion.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 10, total_tokens: 22 });
  });

  it('streams OpenAI chunks, one per token, ending with [DONE]', async () => {
    const stream = await openai().chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], stream: true });
    const deltas: string[] = [];
    const finishes: Array<string | null> = [];
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      if (chunk.choices[0].delta.content) deltas.push(chunk.choices[0].delta.content);
      finishes.push(chunk.choices[0].finish_reason);
      expect(chunk.usage).toBeUndefined();
    }
    expect(deltas).toHaveLength(10);
    expect(deltas.join('')).toBe(TEN_TOKENS);
    expect(finishes.at(-1)).toBe('stop');

    const raw = await (
      await fetch(`${base}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer mock-key', 'content-type': 'application/json' },
        body: '{"model":"gpt-4o-mini","stream":true,"messages":[]}',
      })
    ).text();
    expect(raw.endsWith('data: [DONE]\n\n')).toBe(true);
    expect(raw.split('\n\n').filter(Boolean)).toHaveLength(1 + 10 + 1 + 1);
  });

  it('adds the usage chunk only when stream_options.include_usage asks for it', async () => {
    const stream = await openai().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 10, total_tokens: 22 });
    expect(chunks.slice(0, -1).every((chunk) => chunk.usage === null)).toBe(true);
  });

  it('answers embeddings as floats, and as base64 float32 for the SDK', async () => {
    const response = await fetch(`${base}/v1/embeddings`, {
      method: 'POST',
      headers: { authorization: 'Bearer mock-key', 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'text-embedding-3-small', input: 'hello' }),
    });
    const body = (await response.json()) as { object: string; data: Array<{ embedding: number[]; index: number }> };
    expect(body.object).toBe('list');
    expect(body.data[0].index).toBe(0);
    expect(body.data[0].embedding).toHaveLength(8);

    const viaSdk = await openai().embeddings.create({ model: 'text-embedding-3-small', input: 'hello' });
    const vector = viaSdk.data[0].embedding;
    expect(vector).toHaveLength(8);
    const norm = Math.sqrt(vector.reduce((sum, v) => sum + v * v, 0));
    expect(norm).toBeCloseTo(1, 5);
    vector.forEach((value, i) => expect(value).toBeCloseTo(body.data[0].embedding[i], 6));
  });

  it('answers an Anthropic message the SDK parses, with x-api-key or Bearer', async () => {
    const client = new Anthropic({ baseURL: base, apiKey: 'mock-key', maxRetries: 0 });
    const message = await client.messages.create({ model: 'claude-haiku-4-5-20251001', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    expect(message.type).toBe('message');
    expect(message.content).toEqual([{ type: 'text', text: TEN_TOKENS }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage).toMatchObject({ input_tokens: 12, output_tokens: 10 });

    const withHeader = await fetch(`${base}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'mock-key', 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: '{"model":"claude-haiku-4-5-20251001","max_tokens":5,"messages":[]}',
    });
    expect(withHeader.status).toBe(200);
  });

  it('streams Anthropic events in the documented order', async () => {
    const client = new Anthropic({ baseURL: base, apiKey: 'mock-key', maxRetries: 0 });
    const stream = await client.messages.create({
      model: 'claude-haiku-4-5-20251001',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const types: string[] = [];
    let text = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
      if (event.type === 'message_delta') expect(event.usage.output_tokens).toBe(10);
    }
    expect(text).toBe(TEN_TOKENS);
    // The SDK drops `ping` events; the raw bytes below show it.
    expect(types).toEqual([
      'message_start',
      'content_block_start',
      ...Array<string>(10).fill('content_block_delta'),
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);

    const raw = await (
      await fetch(`${base}/v1/messages`, {
        method: 'POST',
        headers: { 'x-api-key': 'mock-key', 'content-type': 'application/json' },
        body: '{"stream":true}',
      })
    ).text();
    const names = raw
      .split('\n\n')
      .filter(Boolean)
      .map((frame) => {
        const [eventLine, dataLine] = frame.split('\n');
        const name = eventLine.replace('event: ', '');
        expect((JSON.parse(dataLine.replace('data: ', '')) as { type: string }).type).toBe(name);
        return name;
      });
    expect(names.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(names).toHaveLength(3 + 10 + 3);
  });

  it('answers Gemini generateContent, its SSE stream and embeddings through @google/genai', async () => {
    const ai = new GoogleGenAI({ apiKey: 'mock-key', httpOptions: { baseUrl: base } });
    const response = await ai.models.generateContent({ model: 'gemini-2.0-flash', contents: 'hi' });
    expect(response.text).toBe(TEN_TOKENS);
    expect(response.candidates?.[0].finishReason).toBe('STOP');
    expect(response.usageMetadata).toMatchObject({ promptTokenCount: 12, candidatesTokenCount: 10, totalTokenCount: 22 });

    const chunks: string[] = [];
    for await (const chunk of await ai.models.generateContentStream({ model: 'gemini-2.0-flash', contents: 'hi' })) chunks.push(chunk.text ?? '');
    expect(chunks).toHaveLength(10);
    expect(chunks.join('')).toBe(TEN_TOKENS);

    const embedded = await ai.models.embedContent({ model: 'text-embedding-004', contents: ['one', 'two'] });
    expect(embedded.embeddings).toHaveLength(2);
    expect(embedded.embeddings?.[1].values).toHaveLength(8);
  });

  it('rejects a wrong key with each dialect’s 401', async () => {
    const badOpenAI = new OpenAI({ baseURL: `${base}/v1`, apiKey: 'wrong', maxRetries: 0 });
    await expect(badOpenAI.chat.completions.create({ model: 'gpt-4o-mini', messages: [] })).rejects.toMatchObject({ status: 401, code: 'invalid_api_key' });

    const anthropic = await fetch(`${base}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'wrong' }, body: '{}' });
    expect(anthropic.status).toBe(401);
    expect(await anthropic.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });

    const gemini = await fetch(`${base}/v1beta/models/gemini-2.0-flash:generateContent`, {
      method: 'POST',
      headers: { 'x-goog-api-key': 'wrong' },
      body: '{}',
    });
    expect(gemini.status).toBe(401);
    expect(await gemini.json()).toMatchObject({ error: { code: 401, status: 'UNAUTHENTICATED' } });
  });

  it('answers 404 for unknown routes and 200 on /healthz', async () => {
    expect((await fetch(`${base}/v1/nothing`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  });
});

describe('mock upstream, paced', () => {
  it('waits the latency before a JSON answer', async () => {
    const mock = await startMockUpstream({ size: 3, latencyMs: 80, apiKey: 'k' });
    try {
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${mock.port}/v1/chat/completions`, { method: 'POST', headers: { authorization: 'Bearer k' }, body: '{}' });
      await response.arrayBuffer();
      expect(performance.now() - started).toBeGreaterThanOrEqual(75);
    } finally {
      await mock.close();
    }
  });

  it('sends the first token after the TTFT and the rest at the given tokens per second', async () => {
    const mock = await startMockUpstream({ size: 5, ttftMs: 100, tps: 25, apiKey: 'k' });
    try {
      const started = performance.now();
      const response = await fetch(`http://127.0.0.1:${mock.port}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: 'Bearer k' },
        body: '{"stream": true}',
      });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let body = '';
      let firstTokenAt = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        body += decoder.decode(value, { stream: true });
        if (!firstTokenAt && body.includes('"content":"lorem"')) firstTokenAt = performance.now() - started;
      }
      const total = performance.now() - started;
      expect(firstTokenAt).toBeGreaterThanOrEqual(95);
      // 100 ms to the first token, then 4 gaps of 40 ms.
      expect(total).toBeGreaterThanOrEqual(250);
      expect(total).toBeLessThan(2000);
      expect(body.endsWith('data: [DONE]\n\n')).toBe(true);
    } finally {
      await mock.close();
    }
  });
});

describe('parseMockArgs', () => {
  it('reads every flag and rejects nonsense', () => {
    expect(parseMockArgs(['--port=9000', '--latency', '5', '--ttft=20', '--tps=50', '--size=128', '--dims=16', '--key=k'])).toEqual({
      port: 9000,
      latencyMs: 5,
      ttftMs: 20,
      tps: 50,
      size: 128,
      embeddingDims: 16,
      apiKey: 'k',
    });
    expect(() => parseMockArgs(['--tps=fast'])).toThrow(/--tps/);
  });
});
