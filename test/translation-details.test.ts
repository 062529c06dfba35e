/**
 * What crosses dialects besides plain text: images and PDFs, system prompts, stop sequences,
 * cache_control on pass-through, both key headers of the Anthropic SDKs, the Gemini `?key=`
 * form with snake_case bodies and the `/v1/` path, and errors that happen mid-stream.
 */
import Anthropic from '@anthropic-ai/sdk';
import AnthropicLegacy from 'anthropic-sdk-0';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicUpChannel, type FakeUpstreams, geminiUpChannel, openaiUpChannel, startFakeUpstreams } from './helpers/fake-channels.js';
import type { AnthropicAnswer, AnthropicMessagesBody, ErrorBody, GeminiAnswer, GeminiContentBody, OpenAIChatBody } from './helpers/json-bodies.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

let fakes: FakeUpstreams;
let gw: RunningGateway;

// A 1×1 transparent PNG and a tiny (not necessarily renderable) PDF, as base64.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n').toString('base64');

beforeAll(async () => {
  fakes = await startFakeUpstreams();
  gw = await startGateway({
    channels: [
      openaiUpChannel(fakes.openai),
      anthropicUpChannel(fakes.anthropic, { modelMap: { 'textmodel-a-opus-4-5-20251101': 'claude-midstream-error' } }),
      geminiUpChannel(fakes.gemini, { modelMap: { 'textmodel-c-2.5-pro': 'gemini-midstream-error' } }),
    ],
  });
});
afterAll(async () => {
  await gw.close();
  await fakes.close();
});

/** The body of the last request `up` received, read as the dialect `T`. */
const lastBody = <T>(up: { requests: Array<{ body: unknown }> }) => up.requests.at(-1)!.body as T;

describe('media and prompts across dialects', () => {
  it('an OpenAI image part (data URL) reaches Anthropic as a base64 image block, with stop sequences', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key });
    await client.chat.completions.create({
      model: 'textmodel-a-sonnet-4-20250514',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is this?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          ],
        },
      ],
      stop: ['END', 'STOP'],
    });
    const body = lastBody<AnthropicMessagesBody>(fakes.anthropic);
    expect(body.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect(body.messages[0].content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
    ]);
    expect(body.stop_sequences).toEqual(['END', 'STOP']);
    // No cap from the client: the model's own output limit (catalog/models.yaml).
    expect(body.max_tokens).toBe(64000);
  });

  it('an Anthropic PDF document and system prompt reach Gemini as inlineData and systemInstruction', async () => {
    const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key });
    await client.messages.create({
      model: 'textmodel-c-2.5-flash',
      max_tokens: 300,
      system: 'You read documents.',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF } },
            { type: 'text', text: 'Summarise it.' },
          ],
        },
      ],
    });
    const body = lastBody<GeminiContentBody>(fakes.gemini);
    expect(body.systemInstruction!.parts).toEqual([{ text: 'You read documents.' }]);
    expect(body.contents[0].parts).toEqual([{ inlineData: { mimeType: 'application/pdf', data: PDF } }, { text: 'Summarise it.' }]);
    expect(body.generationConfig!.maxOutputTokens).toBe(300);
  });

  it('a snake_case Gemini body with inline_data, keyed by ?key=, reaches OpenAI as an image_url data URL', async () => {
    const res = await fetch(`${gw.url}/v1beta/models/textmodel-b-4o:generateContent?key=${gw.key}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        system_instruction: { parts: [{ text: 'Describe images.' }] },
        contents: [{ role: 'user', parts: [{ inline_data: { mime_type: 'image/png', data: PNG } }, { text: 'and this?' }] }],
        generation_config: { max_output_tokens: 64, stop_sequences: ['##'] },
      }),
    });
    expect(res.status).toBe(200);
    const json = (await res.json()) as GeminiAnswer;
    expect(json.candidates[0].content.parts[0].text).toBe('You said: and this?');
    expect(json.usageMetadata.promptTokenCount).toBeGreaterThan(0);
    const body = lastBody<OpenAIChatBody>(fakes.openai);
    expect(body.messages[0]).toEqual({ role: 'system', content: 'Describe images.' });
    expect(body.messages[1].content).toEqual([
      { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
      { type: 'text', text: 'and this?' },
    ]);
    expect(body.max_completion_tokens).toBe(64);
    expect(body.stop).toEqual(['##']);
  });

  it('passes an Anthropic document with cache_control through unchanged but for the model', async () => {
    const sent = {
      model: 'textmodel-a-haiku-4-5-20251001',
      max_tokens: 100,
      system: [{ type: 'text', text: 'Long instructions', cache_control: { type: 'ephemeral' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: PDF }, cache_control: { type: 'ephemeral' } },
            { type: 'text', text: 'What does it say?' },
          ],
        },
      ],
    };
    const first = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': gw.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify(sent),
    });
    expect(first.headers.get('x-gengate-route')).toBe('passthrough');
    const firstUsage = ((await first.json()) as AnthropicAnswer).usage;
    expect(lastBody<AnthropicMessagesBody>(fakes.anthropic)).toEqual({ ...sent, model: 'claude-haiku-4-5-20251001' });
    expect(fakes.anthropic.requests.at(-1)!.headers['anthropic-version']).toBe('2023-06-01');
    expect(firstUsage.cache_creation_input_tokens).toBeGreaterThan(0);
    const second = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': gw.key, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
      body: JSON.stringify(sent),
    });
    const secondUsage = ((await second.json()) as AnthropicAnswer).usage;
    expect(secondUsage.cache_read_input_tokens).toBe(firstUsage.cache_creation_input_tokens);
  });
});

describe('SDK variants', () => {
  it('the 0.x Anthropic SDK (x-api-key) and the 1.x SDK (Bearer) both authenticate', async () => {
    const legacy = new AnthropicLegacy({ baseURL: gw.url, apiKey: gw.key });
    const old = await legacy.messages.create({ model: 'textmodel-b-4o', max_tokens: 50, messages: [{ role: 'user', content: 'old sdk' }] });
    expect(old.content[0]).toEqual({ type: 'text', text: 'You said: old sdk' });
    expect(fakes.openai.requests.length).toBeGreaterThan(0);

    const current = new Anthropic({ baseURL: gw.url, apiKey: gw.key });
    const now = await current.messages.create({ model: 'textmodel-b-4o', max_tokens: 50, messages: [{ role: 'user', content: 'new sdk' }] });
    expect(now.content[0]).toMatchObject({ type: 'text', text: 'You said: new sdk' });
  });

  it('the Gemini SDK works under /v1/ as well as /v1beta/', async () => {
    const ai = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url, apiVersion: 'v1' } });
    const result = await ai.models.generateContent({ model: 'textmodel-a-haiku-4-5-20251001', contents: 'via v1' });
    expect(result.text).toBe('Hello from the fake Anthropic upstream. You said: via v1');
    const listed = await ai.models.list();
    const names: string[] = [];
    for await (const model of listed) names.push(model.name!);
    expect(names).toContain('models/textmodel-c-2.5-flash');
  });
});

describe('errors after the stream started arrive as the dialect in-stream error', () => {
  it('OpenAI client, Anthropic upstream failing mid-stream: the SDK throws after the first text', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'textmodel-a-opus-4-5-20251101', messages: [{ role: 'user', content: 'go' }], stream: true });
    let text = '';
    const error = await (async () => {
      try {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect(String((error as Error).message)).toMatch(/overloaded/i);
    expect(text.length).toBeGreaterThan(0);
  });

  it('Anthropic client, Gemini upstream failing mid-stream: an error event the SDK raises', async () => {
    const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
    const stream = client.messages.stream({ model: 'textmodel-c-2.5-pro', max_tokens: 100, messages: [{ role: 'user', content: 'go' }] });
    await expect(stream.finalMessage()).rejects.toThrow();
  });

  it('Gemini client, OpenAI upstream failing mid-stream: a final error chunk in Gemini shape', async () => {
    fakes.openai.setNext('mid-stream-error');
    const res = await fetch(`${gw.url}/v1beta/models/textmodel-b-4o:streamGenerateContent?alt=sse`, {
      method: 'POST',
      headers: { 'x-goog-api-key': gw.key, 'content-type': 'application/json' },
      body: JSON.stringify({ contents: [{ parts: [{ text: 'go' }] }] }),
    });
    expect(res.status).toBe(200);
    const frames = (await res.text())
      .split(/\r?\n\r?\n/)
      .filter(Boolean)
      .map((f) => JSON.parse(f.replace(/^data: /, '')) as unknown);
    expect(frames.length).toBeGreaterThan(1);
    expect((frames[0] as GeminiAnswer).candidates[0].content.parts[0].text.length).toBeGreaterThan(0);
    const last = frames.at(-1) as ErrorBody;
    expect(Object.keys(last)).toEqual(['error']);
    expect(typeof last.error.code).toBe('number');
    expect(typeof last.error.status).toBe('string');
  });
});
