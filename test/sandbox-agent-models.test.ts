/**
 * A gateway on its embedded defaults (sandbox only, no upstream) answers the model ids the
 * coding agents send by default — Claude Code's `claude-…`, Codex's `gpt-5…-codex`, Gemini
 * CLI's `gemini-…` — in their own dialects, lists them, and counts tokens for them, as it does
 * for the spec's ids.
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

const CLAUDE_CODE = [
  'claude-opus-4-5',
  'claude-opus-4-5-20251101',
  'claude-sonnet-4-5',
  'claude-sonnet-4-5-20250929',
  'claude-haiku-4-5',
  'claude-haiku-4-5-20251001',
];
const CODEX = ['gpt-5', 'gpt-5-codex', 'gpt-5.1-codex', 'gpt-5.1-codex-mini', 'gpt-5-mini', 'gpt-4.1'];
const GEMINI_CLI = ['gemini-3-pro-preview', 'gemini-3-flash-preview', 'gemini-2.5-pro', 'gemini-2.5-flash'];

describe("the agents' default model ids, out of the box", () => {
  it.each(CLAUDE_CODE)('%s answers the Anthropic SDK, simulated, and count_tokens counts for it', async (model) => {
    const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
    const { data, response } = await client.messages.create({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] }).withResponse();
    expect(response.headers.get('x-gengate-simulated')).toBe('true');
    expect(data.model).toBe(model);
    expect(data.content[0].type).toBe('text');
    const counted = await client.messages.countTokens({ model, messages: [{ role: 'user', content: 'hello there' }] });
    expect(counted.input_tokens).toBeGreaterThan(0);
  });

  it.each(CODEX)('%s answers the OpenAI SDK, simulated', async (model) => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key, maxRetries: 0 });
    const { data, response } = await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'hello' }] }).withResponse();
    expect(response.headers.get('x-gengate-simulated')).toBe('true');
    expect(data.model).toBe(model);
    expect(data.choices[0].message.content).toBeTruthy();
  });

  it.each(GEMINI_CLI)('%s answers generateContent and countTokens', async (model) => {
    const ai = new GoogleGenAI({ apiKey: gw.key, httpOptions: { baseUrl: gw.url } });
    const answer = await ai.models.generateContent({ model, contents: 'hello' });
    expect(answer.text).toBeTruthy();
    const counted = await ai.models.countTokens({ model, contents: 'hello there' });
    expect(counted.totalTokens).toBeGreaterThan(0);
  });

  it('lists them beside the spec ids, with their vendors', async () => {
    const openai = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: gw.key });
    const owners = new Map<string, string>();
    for await (const model of openai.models.list()) owners.set(model.id, model.owned_by);
    for (const id of CLAUDE_CODE) expect(owners.get(id), id).toBe('anthropic');
    for (const id of CODEX) expect(owners.get(id), id).toBe('openai');
    for (const id of GEMINI_CLI) expect(owners.get(id), id).toBe('google');
    expect(owners.get('textmodel-a-opus-4-5-20251101')).toBe('anthropic');
  });

  it('an id no vendor uses is still a 404', async () => {
    const client = new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0 });
    const error = await client.messages
      .create({ model: 'claude-nonexistent-9', max_tokens: 8, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
  });
});
