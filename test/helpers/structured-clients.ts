/**
 * The three official SDKs asking for structured output, each in its own dialect: OpenAI
 * `response_format` json_schema, Anthropic `output_config.format`, Gemini `responseJsonSchema`.
 * Answers are reduced to the answer's text and the gateway's headers.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { type SurfaceName, sendAnthropicMessage } from './sdk-clients.js';

export interface StructuredAsk {
  model: string;
  prompt: string;
  stream: boolean;
  schema: Record<string, unknown>;
  /** Extra body fields in the client's dialect (OpenAI only). */
  extra?: Record<string, unknown>;
}

export interface StructuredAnswer {
  text: string;
  route: string | null;
  channel: string | null;
  warnings: string | null;
}

export async function askOpenAIStructured(url: string, key: string, ask: StructuredAsk): Promise<StructuredAnswer> {
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 });
  const base = {
    model: ask.model,
    messages: [{ role: 'user' as const, content: ask.prompt }],
    response_format: { type: 'json_schema' as const, json_schema: { name: 'weather_report', schema: ask.schema, strict: true } },
    ...ask.extra,
  };
  let text = '';
  let headers: Headers;
  if (ask.stream) {
    const { data, response } = await client.chat.completions.create({ ...base, stream: true }).withResponse();
    headers = response.headers;
    for await (const chunk of data) text += chunk.choices[0]?.delta.content ?? '';
  } else {
    const { data, response } = await client.chat.completions.create(base).withResponse();
    headers = response.headers;
    text = data.choices[0].message.content ?? '';
  }
  return summary(text, (name) => headers.get(name));
}

export async function askAnthropicStructured(url: string, key: string, ask: StructuredAsk): Promise<StructuredAnswer> {
  const client = new Anthropic({ baseURL: url, apiKey: key, maxRetries: 0 });
  const params: Anthropic.MessageCreateParamsNonStreaming = {
    model: ask.model,
    max_tokens: 512,
    messages: [{ role: 'user', content: ask.prompt }],
    output_config: { format: { type: 'json_schema', schema: ask.schema } },
  };
  const { message, headers } = await sendAnthropicMessage(client, params, ask.stream);
  const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  return summary(text, (name) => headers.get(name));
}

export async function askGeminiStructured(url: string, key: string, ask: StructuredAsk): Promise<StructuredAnswer> {
  const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: url } });
  const request = { model: ask.model, contents: ask.prompt, config: { responseMimeType: 'application/json', responseJsonSchema: ask.schema } };
  const chunks = ask.stream ? [] : [await ai.models.generateContent(request)];
  if (ask.stream) for await (const chunk of await ai.models.generateContentStream(request)) chunks.push(chunk);
  let text = '';
  for (const chunk of chunks) {
    for (const part of chunk.candidates?.[0]?.content?.parts ?? []) if (typeof part.text === 'string' && !part.thought) text += part.text;
  }
  const headers = chunks[0]?.sdkHttpResponse?.headers ?? {};
  return summary(text, (name) => headers[name] ?? null);
}

function summary(text: string, header: (name: string) => string | null): StructuredAnswer {
  return { text, route: header('x-gengate-route'), channel: header('x-gengate-channel'), warnings: header('x-gengate-warnings') };
}

export const ASK_STRUCTURED: Record<SurfaceName, (url: string, key: string, ask: StructuredAsk) => Promise<StructuredAnswer>> = {
  openai: askOpenAIStructured,
  anthropic: askAnthropicStructured,
  gemini: askGeminiStructured,
};
