/**
 * The three official SDKs driven the same way, their answers reduced to one comparable shape:
 * the text, the tool calls (name + parsed arguments), the finish reason in the client's own
 * dialect, usage in the client's own fields, and the gateway's route headers.
 */
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, FunctionCallingConfigMode } from '@google/genai';
import OpenAI from 'openai';

export interface Tool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface Ask {
  model: string;
  prompt: string;
  stream: boolean;
  /** When given, the call forces this tool. */
  tool?: Tool;
}

export interface Answer {
  text: string;
  calls: Array<{ name: string; args: unknown }>;
  finish: string | null | undefined;
  usage: Record<string, number | undefined>;
  route: string | null;
  channel: string | null;
}

export type SurfaceName = 'openai' | 'anthropic' | 'gemini';

export async function askOpenAI(url: string, key: string, ask: Ask): Promise<Answer> {
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 });
  const base = {
    model: ask.model,
    messages: [{ role: 'user' as const, content: ask.prompt }],
    ...(ask.tool
      ? { tools: [{ type: 'function' as const, function: ask.tool }], tool_choice: { type: 'function' as const, function: { name: ask.tool.name } } }
      : {}),
  };
  if (!ask.stream) {
    const { data, response } = await client.chat.completions.create(base).withResponse();
    const choice = data.choices[0];
    return {
      text: choice.message.content ?? '',
      calls: (choice.message.tool_calls ?? []).map((c) => {
        const call = c as OpenAI.ChatCompletionMessageFunctionToolCall;
        return { name: call.function.name, args: JSON.parse(call.function.arguments) };
      }),
      finish: choice.finish_reason,
      usage: {
        prompt_tokens: data.usage?.prompt_tokens,
        completion_tokens: data.usage?.completion_tokens,
        cached_tokens: data.usage?.prompt_tokens_details?.cached_tokens,
      },
      route: response.headers.get('x-gengate-route'),
      channel: response.headers.get('x-gengate-channel'),
    };
  }
  const { data: stream, response } = await client.chat.completions.create({ ...base, stream: true, stream_options: { include_usage: true } }).withResponse();
  let text = '';
  let finish: string | null = null;
  let usage: OpenAI.CompletionUsage | undefined;
  const calls = new Map<number, { name: string; args: string }>();
  for await (const chunk of stream) {
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    text += choice.delta.content ?? '';
    for (const delta of choice.delta.tool_calls ?? []) {
      const call = calls.get(delta.index) ?? { name: '', args: '' };
      call.name += delta.function?.name ?? '';
      call.args += delta.function?.arguments ?? '';
      calls.set(delta.index, call);
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  return {
    text,
    calls: [...calls.values()].map((c) => ({ name: c.name, args: JSON.parse(c.args) })),
    finish,
    usage: { prompt_tokens: usage?.prompt_tokens, completion_tokens: usage?.completion_tokens, cached_tokens: usage?.prompt_tokens_details?.cached_tokens },
    route: response.headers.get('x-gengate-route'),
    channel: response.headers.get('x-gengate-channel'),
  };
}

export async function askAnthropic(url: string, key: string, ask: Ask): Promise<Answer> {
  const client = new Anthropic({ baseURL: url, apiKey: key, maxRetries: 0 });
  const params: Anthropic.MessageCreateParamsNonStreaming = {
    model: ask.model,
    max_tokens: 512,
    messages: [{ role: 'user', content: ask.prompt }],
    ...(ask.tool
      ? {
          tools: [{ name: ask.tool.name, description: ask.tool.description, input_schema: ask.tool.parameters as Anthropic.Tool.InputSchema }],
          tool_choice: { type: 'tool' as const, name: ask.tool.name },
        }
      : {}),
  };
  const { message, headers } = await sendAnthropicMessage(client, params, ask.stream);
  return {
    text: message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
    calls: message.content
      .filter((block) => block.type === 'tool_use')
      .map((block) => ({ name: (block as Anthropic.ToolUseBlock).name, args: (block as Anthropic.ToolUseBlock).input })),
    finish: message.stop_reason,
    usage: {
      input_tokens: message.usage.input_tokens,
      output_tokens: message.usage.output_tokens,
      cache_read_input_tokens: message.usage.cache_read_input_tokens ?? undefined,
      cache_creation_input_tokens: message.usage.cache_creation_input_tokens ?? undefined,
    },
    route: headers.get('x-gengate-route'),
    channel: headers.get('x-gengate-channel'),
  };
}

export async function askGemini(url: string, key: string, ask: Ask): Promise<Answer> {
  const ai = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: url } });
  const config = ask.tool
    ? {
        tools: [{ functionDeclarations: [{ name: ask.tool.name, description: ask.tool.description, parametersJsonSchema: ask.tool.parameters }] }],
        toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [ask.tool.name] } },
      }
    : undefined;
  const request = { model: ask.model, contents: ask.prompt, config };
  const chunks = ask.stream ? [] : [await ai.models.generateContent(request)];
  if (ask.stream) for await (const chunk of await ai.models.generateContentStream(request)) chunks.push(chunk);
  let text = '';
  const calls: Answer['calls'] = [];
  let finish: string | undefined;
  let usage: Answer['usage'] = {};
  for (const chunk of chunks) {
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (typeof part.text === 'string' && !part.thought) text += part.text;
      if (part.functionCall) calls.push({ name: part.functionCall.name!, args: part.functionCall.args });
    }
    if (candidate?.finishReason) finish = candidate.finishReason;
    if (chunk.usageMetadata) {
      usage = {
        promptTokenCount: chunk.usageMetadata.promptTokenCount,
        candidatesTokenCount: chunk.usageMetadata.candidatesTokenCount,
        totalTokenCount: chunk.usageMetadata.totalTokenCount,
        cachedContentTokenCount: chunk.usageMetadata.cachedContentTokenCount,
      };
    }
  }
  const headers = chunks[0]?.sdkHttpResponse?.headers ?? {};
  return { text, calls, finish, usage, route: headers['x-gengate-route'] ?? null, channel: headers['x-gengate-channel'] ?? null };
}

export const ASK: Record<SurfaceName, (url: string, key: string, ask: Ask) => Promise<Answer>> = {
  openai: askOpenAI,
  anthropic: askAnthropic,
  gemini: askGemini,
};

/**
 * The official SDK clients of a running gateway without retries, each made afresh per call;
 * `gateway` is read at that call, so it may be one a `beforeAll` starts.
 */
export function gatewayClients(gateway: () => { url: string; key: string }) {
  return {
    openai: () => new OpenAI({ baseURL: `${gateway().url}/v1`, apiKey: gateway().key, maxRetries: 0 }),
    anthropic: () => new Anthropic({ baseURL: gateway().url, apiKey: gateway().key, maxRetries: 0 }),
    gemini: () => new GoogleGenAI({ apiKey: gateway().key, httpOptions: { baseUrl: gateway().url } }),
  };
}

/** One Messages call, streamed (assembled by the SDK) or not, with the answer's headers. */
export async function sendAnthropicMessage(
  client: Anthropic,
  params: Anthropic.MessageCreateParamsNonStreaming,
  stream: boolean,
): Promise<{ message: Anthropic.Message; headers: Headers }> {
  if (stream) {
    const streamed = client.messages.stream(params);
    const headers = (await streamed.withResponse()).response.headers;
    return { message: await streamed.finalMessage(), headers };
  }
  const { data, response } = await client.messages.create(params).withResponse();
  return { message: data, headers: response.headers };
}
