/**
 * The vendors' real model ids work from every surface, as the spec's ids do: an OpenAI id
 * through the Anthropic surface, a Claude id through the Gemini surface, and every catalog model
 * a channel serves (here the sandbox) in `/v1/models`.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from './helpers/start-gateway.js';

let gw: RunningGateway;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(() => gw.close());

describe('real model ids across surfaces', () => {
  it.each(['gpt-5', 'o3', 'gemini-2.5-pro'])('%s answers through the Anthropic surface', async (model) => {
    const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
    const data = await client.messages.create({ model, max_tokens: 32, messages: [{ role: 'user', content: 'hello' }] });
    expect(data.model).toBe(model);
    expect(data.content[0].type).toBe('text');
  });

  it.each(['claude-sonnet-4-5', 'claude-3-5-haiku-latest', 'gpt-4.1-nano'])('%s answers through the Gemini surface', async (model) => {
    const ai = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
    const answer = await ai.models.generateContent({ model, contents: 'hello' });
    expect(answer.text).toBeTruthy();
  });

  it('lists the chat, embedding, image and video models a channel serves in /v1/models', async () => {
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const ids = new Set<string>();
    for await (const model of openai.models.list()) ids.add(model.id);
    for (const id of ['o3', 'o4-mini', 'claude-opus-4-1', 'gemini-2.0-flash', 'text-embedding-3-large', 'gpt-image-1', 'dall-e-3']) {
      expect(ids.has(id), id).toBe(true);
    }
  });
});
