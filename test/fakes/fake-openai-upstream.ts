/**
 * A fake OpenAI Chat Completions upstream on a real `node:http` server, following the
 * published wire format: JSON and SSE answers (with `stream_options.include_usage` honoured
 * as OpenAI does), tool calls when tools are offered, Bearer key checks, and error scenarios
 * chosen by the request. Deterministic: ids count up, `created` is fixed per request, token
 * counts are word counts. `POST /v1/embeddings`: see fake-openai-embeddings.ts.
 *
 * Scenarios (model name, `x-fake-scenario` header, or `setNext`):
 *   fail-400, fail-401, fail-404, fail-429, fail-quota, fail-500, fail-503, fail-html-502,
 *   mid-stream-error (streams some text, then an error chunk), truncated-stream (no finish,
 *   no [DONE]), parallel-tools (two tool calls), slow-stream (a pause before each chunk).
 * `n` above 1 answers that many choices (up to 8), the same answer in each, completion tokens
 * counted for all of them, as OpenAI does.
 * Documented limits are refused with OpenAI's 400s: a `user` above 64 characters, a function
 * name outside `^[a-zA-Z0-9_-]{1,64}$`, more than 128 tools.
 * Structured output: `response_format` json_schema answers JSON valid against the schema (with
 * `strict: true`, schemas that leave an object open or a property optional are refused as
 * OpenAI does); json_object answers a small JSON object.
 * `answerWith` (scripted-turn.ts) lets a test decide the text or tool call from the request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ChannelConfig } from '../../src/providers/types.js';
import { answerOpenAIEmbeddings } from './fake-openai-embeddings.js';
import { closeServer, sendJson, readBody } from './fake-http.js';
import { schemaInstance } from './schema-instance.js';
import { ScriptSlot, type ScriptedStream } from './scripted-sse.js';
import type { ScriptedTurn, TurnScript } from './scripted-turn.js';

export const FAKE_OPENAI_API_KEY = 'sk-fake-openai-upstream';
export const FAKE_CREATED = 1_700_000_000;

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown> | undefined;
}

export interface FakeOpenAIUpstreamOptions {
  /** The key the fake accepts; null accepts any request, with or without a key. */
  apiKey?: string | null;
  /** Pause before each streamed chunk in the `slow-stream` scenario. */
  slowChunkDelayMs?: number;
  /** Decides chat completion turns from the request (after the fake's checks). */
  answerWith?: TurnScript;
}

export interface FakeOpenAIUpstream {
  /** Base URL including `/v1`, as a channel's baseUrl. */
  url: string;
  requests: RecordedRequest[];
  /** Forces the scenario of the next request only. */
  setNext(scenario: string): void;
  /** Answers the next chat completion with these exact bytes (see scripted-sse.ts). */
  replayNext(script: ScriptedStream): void;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

interface Plan {
  text?: string;
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
  finishReason: 'stop' | 'length' | 'tool_calls';
  usage: Json;
}

export async function startFakeOpenAIUpstream(options: FakeOpenAIUpstreamOptions = {}): Promise<FakeOpenAIUpstream> {
  const apiKey = options.apiKey === undefined ? FAKE_OPENAI_API_KEY : options.apiKey;
  const requests: RecordedRequest[] = [];
  let next: string | undefined;
  let counter = 0;
  const scripts = new ScriptSlot();

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, String(error), 'server_error', null, null);
      else res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    let body: Json | undefined;
    try {
      body = text.length > 0 ? (JSON.parse(text) as Json) : undefined;
    } catch {
      body = undefined;
    }
    const path = (req.url ?? '/').split('?')[0];
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
    const n = ++counter;
    res.setHeader('x-request-id', `req_fake${n}`);

    if (apiKey !== null && req.headers.authorization !== `Bearer ${apiKey}`) {
      const presented = /^Bearer (.*)$/.exec(req.headers.authorization ?? '')?.[1];
      const message = presented
        ? `Incorrect API key provided: ${presented.slice(0, 3)}****${presented.slice(-4)}. You can find your API key at https://platform.openai.com/account/api-keys.`
        : "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).";
      return sendError(res, 401, message, 'invalid_request_error', null, 'invalid_api_key');
    }
    if (req.method === 'GET' && path === '/v1/models') {
      return sendJson(res, 200, { object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', created: FAKE_CREATED, owned_by: 'system' }] });
    }
    if (req.method === 'POST' && path === '/v1/embeddings') {
      const answer = answerOpenAIEmbeddings(body);
      return sendJson(res, answer.status, answer.body);
    }
    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      return sendError(res, 404, `Invalid URL (${req.method} ${path})`, 'invalid_request_error', null, null);
    }
    if (scripts.answer(res)) return;
    if (!body) return sendError(res, 400, 'We could not parse the JSON body of your request.', 'invalid_request_error', null, null);
    if (typeof body.model !== 'string') return sendError(res, 400, 'you must provide a model parameter', 'invalid_request_error', null, null);
    if (!Array.isArray(body.messages) || body.messages.length === 0) {
      return sendError(
        res,
        400,
        "Invalid 'messages': empty array. Expected an array with minimum length 1.",
        'invalid_request_error',
        'messages',
        'empty_array',
      );
    }

    const formatError = checkResponseFormat(body.response_format);
    if (formatError) return sendError(res, 400, formatError, 'invalid_request_error', 'response_format', null);

    if (Array.isArray(body.stop) && body.stop.length > 4) {
      const got = `Expected an array with maximum length 4, but got an array with length ${body.stop.length} instead.`;
      return sendError(res, 400, `Invalid 'stop': array too long. ${got}`, 'invalid_request_error', 'stop', 'array_above_max_length');
    }
    const limitError = checkDocumentedLimits(body);
    if (limitError) return sendError(res, 400, limitError.message, 'invalid_request_error', limitError.param, limitError.code);
    const scenario = next ?? headerScenario(req) ?? (body.model.startsWith('fail-') ? body.model : undefined);
    next = undefined;
    if (scenario && failWith(res, scenario, body.model)) return;

    const turn = options.answerWith?.(body);
    const plan = turn ? planTurn(body, turn, n) : planAnswer(body, n, scenario);
    const id = `chatcmpl-fake${n}`;
    const choices = typeof body.n === 'number' && Number.isInteger(body.n) && body.n > 1 ? Math.min(body.n, 8) : 1;
    if (choices > 1) plan.usage = scaleCompletion(plan.usage, choices);
    if (body.stream === true) return streamAnswer(res, body, plan, id, scenario, options.slowChunkDelayMs ?? 50, choices);
    const message: Json = { role: 'assistant', content: plan.text ?? null, refusal: null, annotations: [] };
    if (plan.toolCalls) {
      message.tool_calls = plan.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
    }
    sendJson(res, 200, {
      id,
      object: 'chat.completion',
      created: FAKE_CREATED,
      model: body.model,
      choices: Array.from({ length: choices }, (_, index) => ({ index, message, logprobs: null, finish_reason: plan.finishReason })),
      usage: plan.usage,
      service_tier: 'default',
      system_fingerprint: 'fp_fake',
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setNext(scenario) {
      next = scenario;
    },
    replayNext: (script) => scripts.replayNext(script),
    close: () => closeServer(server),
  };
}

/** A channel pointing at the fake, for provider and integration tests. */
export function fakeOpenAIChannel(upstream: FakeOpenAIUpstream, overrides: Partial<ChannelConfig> = {}): ChannelConfig {
  return {
    name: 'fake-openai',
    provider: 'openai',
    baseUrl: upstream.url,
    apiKey: FAKE_OPENAI_API_KEY,
    headers: {},
    timeoutMs: 5_000,
    options: {},
    ...overrides,
  };
}

/** The text the fake answers for a user's last message. */
export function fakeEchoText(lastUserText: string): string {
  return `You said: ${lastUserText}`;
}

/** The arguments the fake puts in a call to a tool with these JSON-schema parameters. */
export function fakeToolArguments(parameters: unknown): Json {
  const properties = (parameters as { properties?: Record<string, { type?: string; enum?: unknown[] }> } | undefined)?.properties ?? {};
  const args: Json = {};
  for (const [name, schema] of Object.entries(properties)) {
    if (Array.isArray(schema.enum) && schema.enum.length > 0) args[name] = schema.enum[0];
    else if (schema.type === 'number' || schema.type === 'integer') args[name] = 42;
    else if (schema.type === 'boolean') args[name] = true;
    else if (schema.type === 'array') args[name] = [];
    else if (schema.type === 'object') args[name] = {};
    else args[name] = `fake-${name}`;
  }
  return args;
}

function planAnswer(body: Json, n: number, scenario: string | undefined): Plan {
  const messages = body.messages as Json[];
  const promptTokens = messages.reduce((sum, message) => sum + 4 + countWords(messageText(message)), 0);
  const tools = (Array.isArray(body.tools) ? body.tools : []) as Array<{ function?: { name?: string; parameters?: unknown } }>;
  const toolChoice = body.tool_choice;
  const lastRole = messages[messages.length - 1]?.role;
  const cached = promptTokens >= 1024 ? Math.floor(promptTokens / 128) * 128 : 0;
  const usageFor = (completion: number): Json => ({
    prompt_tokens: promptTokens,
    completion_tokens: completion,
    total_tokens: promptTokens + completion,
    prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  });

  if (tools.length > 0 && toolChoice !== 'none' && lastRole !== 'tool') {
    const forced = typeof toolChoice === 'object' && toolChoice !== null ? (toolChoice as { function?: { name?: string } }).function?.name : undefined;
    const chosen = forced ? tools.filter((tool) => tool.function?.name === forced) : tools.slice(0, scenario === 'parallel-tools' ? 2 : 1);
    const picked = scenario === 'parallel-tools' && chosen.length === 1 ? [chosen[0], chosen[0]] : chosen;
    const toolCalls = picked.map((tool, i) => ({
      id: `call_fake${n}_${i}`,
      name: tool.function?.name ?? 'unknown',
      arguments: JSON.stringify(fakeToolArguments(tool.function?.parameters)),
    }));
    return { toolCalls, finishReason: 'tool_calls', usage: usageFor(toolCalls.reduce((sum, call) => sum + 5 + countWords(call.arguments), 0)) };
  }

  const lastUser = [...messages].reverse().find((message) => message.role === 'user' || message.role === 'tool');
  const source = lastUser ? messageText(lastUser) : '';
  const echo = fakeEchoText(lastUser?.role === 'tool' ? `the tool answered ${source}` : source);
  let words = structuredText(body.response_format, echo).split(' ');
  const limit = (body.max_completion_tokens ?? body.max_tokens) as number | undefined;
  let finishReason: Plan['finishReason'] = 'stop';
  if (typeof limit === 'number' && words.length > limit) {
    words = words.slice(0, limit);
    finishReason = 'length';
  }
  return { text: words.join(' '), finishReason, usage: usageFor(words.length) };
}

/** A scripted turn as the fake's plan, with the usage planAnswer would count. */
function planTurn(body: Json, turn: ScriptedTurn, n: number): Plan {
  const promptTokens = (body.messages as Json[]).reduce((sum, message) => sum + 4 + countWords(messageText(message)), 0);
  const usageFor = (completion: number): Json => ({ prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion });
  if ('text' in turn) return { text: turn.text, finishReason: 'stop', usage: usageFor(countWords(turn.text)) };
  const call = { id: `call_fake${n}_0`, name: turn.toolCall.name, arguments: JSON.stringify(turn.toolCall.args) };
  return { toolCalls: [call], finishReason: 'tool_calls', usage: usageFor(5 + countWords(call.arguments)) };
}

function scaleCompletion(usage: Json, choices: number): Json {
  const completion = (usage.completion_tokens as number) * choices;
  return { ...usage, completion_tokens: completion, total_tokens: (usage.prompt_tokens as number) + completion };
}

function streamAnswer(res: ServerResponse, body: Json, plan: Plan, id: string, scenario: string | undefined, delayMs: number, choices = 1): void {
  const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
  const frames: string[] = [];
  let index = 0;
  const chunk = (delta: Json, finishReason: string | null = null): void => {
    const value: Json = {
      id,
      object: 'chat.completion.chunk',
      created: FAKE_CREATED,
      model: body.model,
      service_tier: 'default',
      system_fingerprint: 'fp_fake',
      choices: [{ index, delta, logprobs: null, finish_reason: finishReason }],
    };
    if (includeUsage) value.usage = null;
    frames.push(`data: ${JSON.stringify(value)}\n\n`);
  };

  for (index = 0; index < choices; index++) {
    if (plan.toolCalls) {
      plan.toolCalls.forEach((call, at) => {
        const first = { index: at, id: call.id, type: 'function', function: { name: call.name, arguments: '' } };
        chunk(at === 0 ? { role: 'assistant', content: null, tool_calls: [first], refusal: null } : { tool_calls: [first] });
        for (const piece of splitInto(call.arguments, 3)) chunk({ tool_calls: [{ index: at, function: { arguments: piece } }] });
      });
    } else {
      chunk({ role: 'assistant', content: '', refusal: null });
      const words = (plan.text ?? '').split(' ');
      words.forEach((word, i) => chunk({ content: i === 0 ? word : ` ${word}` }));
    }
    if (index < choices - 1) chunk({}, plan.finishReason);
  }
  index = choices - 1;
  if (scenario === 'mid-stream-error') {
    frames.splice(3);
    frames.push(
      `data: ${JSON.stringify({ error: { message: 'The server had an error while processing your request. Sorry about that!', type: 'server_error', param: null, code: null } })}\n\n`,
    );
  } else if (scenario === 'truncated-stream') {
    frames.splice(3);
  } else {
    chunk({}, plan.finishReason);
    if (includeUsage) {
      frames.push(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: FAKE_CREATED, model: body.model, service_tier: 'default', system_fingerprint: 'fp_fake', choices: [], usage: plan.usage })}\n\n`,
      );
    }
    frames.push('data: [DONE]\n\n');
  }

  if (scenario !== 'slow-stream') {
    // Several frames per write, split at odd places, as real TCP delivery does.
    const all = frames.join('');
    const cut = Math.floor(all.length / 3);
    res.write(all.slice(0, cut));
    res.write(all.slice(cut, cut * 2 + 7));
    res.end(all.slice(cut * 2 + 7));
    return;
  }
  let i = 0;
  const tick = (): void => {
    if (res.destroyed) return;
    if (i >= frames.length) return void res.end();
    res.write(frames[i++]);
    setTimeout(tick, delayMs);
  };
  setTimeout(tick, delayMs);
}

function failWith(res: ServerResponse, scenario: string, model: string): boolean {
  switch (scenario) {
    case 'fail-400':
      sendError(res, 400, "Invalid value for 'temperature': must be between 0 and 2.", 'invalid_request_error', 'temperature', 'invalid_value');
      return true;
    case 'fail-401':
      sendError(res, 401, 'Incorrect API key provided: sk-****oops.', 'invalid_request_error', null, 'invalid_api_key');
      return true;
    case 'fail-404':
      sendError(res, 404, `The model \`${model}\` does not exist or you do not have access to it.`, 'invalid_request_error', null, 'model_not_found');
      return true;
    case 'fail-429':
      res.setHeader('retry-after', '2');
      sendError(
        res,
        429,
        'Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s.',
        'requests',
        null,
        'rate_limit_exceeded',
      );
      return true;
    case 'fail-quota':
      sendError(res, 429, 'You exceeded your current quota, please check your plan and billing details.', 'insufficient_quota', null, 'insufficient_quota');
      return true;
    case 'fail-500':
      sendError(res, 500, 'The server had an error while processing your request. Sorry about that!', 'server_error', null, null);
      return true;
    case 'fail-503':
      sendError(res, 503, 'The engine is currently overloaded, please try again later.', 'server_error', null, null);
      return true;
    case 'fail-html-502':
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      return true;
    default:
      return false;
  }
}

function headerScenario(req: IncomingMessage): string | undefined {
  const value = req.headers['x-fake-scenario'];
  return Array.isArray(value) ? value[0] : value;
}

function messageText(message: Json): string {
  const content = message.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: string; text?: string }) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
    .filter((text) => text.length > 0)
    .join(' ');
}

function countWords(text: string): number {
  return text.split(/\s+/).filter((word) => word.length > 0).length;
}

function splitInto(text: string, pieces: number): string[] {
  const size = Math.ceil(text.length / pieces);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function sendError(res: ServerResponse, status: number, message: string, type: string, param: string | null, code: string | null): void {
  sendJson(res, status, { error: { message, type, param, code } });
}

/** The answer's text in structured mode: indented JSON (so that it streams in several chunks). */
function structuredText(format: unknown, echo: string): string {
  const f = format as { type?: string; json_schema?: { schema?: unknown } } | undefined;
  if (f?.type === 'json_schema') return JSON.stringify(schemaInstance(f.json_schema?.schema ?? {}), null, 1);
  if (f?.type === 'json_object') return JSON.stringify({ answer: echo }, null, 1);
  return echo;
}

/** OpenAI's checks of a strict schema: every object closed and every property required. */
function checkResponseFormat(format: unknown): string | undefined {
  const f = format as { type?: string; json_schema?: { name?: unknown; schema?: unknown; strict?: unknown } } | undefined;
  if (f?.type !== 'json_schema') return undefined;
  const spec = f.json_schema;
  if (!spec || typeof spec.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(spec.name)) {
    return "Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.";
  }
  if (spec.strict !== true) return undefined;
  const problem = strictProblem(spec.schema, '()');
  return problem ? `Invalid schema for response_format '${spec.name}': ${problem}` : undefined;
}

function strictProblem(schema: unknown, context: string): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const s = schema as Json;
  const isObject = s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'));
  if (isObject) {
    if (s.additionalProperties !== false) return `In context=${context}, 'additionalProperties' is required to be supplied and to be false.`;
    const keys = Object.keys((s.properties as Json | undefined) ?? {});
    const required = Array.isArray(s.required) ? s.required : [];
    const missing = keys.find((key) => !required.includes(key));
    if (missing)
      return `In context=${context}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
  }
  const children: Array<[string, unknown]> = [];
  for (const [key, inner] of Object.entries((s.properties as Json | undefined) ?? {})) children.push([`('properties', '${key}')`, inner]);
  for (const [key, inner] of Object.entries((s.$defs as Json | undefined) ?? {})) children.push([`('$defs', '${key}')`, inner]);
  if (s.items) children.push(["('items',)", s.items]);
  for (const [i, inner] of ((s.anyOf as unknown[] | undefined) ?? []).entries()) children.push([`('anyOf', '${i}')`, inner]);
  for (const [at, inner] of children) {
    const problem = strictProblem(inner, context === '()' ? at : `${context}, ${at}`);
    if (problem) return problem;
  }
  return undefined;
}

/** The 400s OpenAI answers for `user`, function names and the tool count (its reference's limits). */
function checkDocumentedLimits(body: Json): { message: string; param: string; code: string } | undefined {
  if (typeof body.user === 'string' && body.user.length > 64) {
    return {
      message: `Invalid 'user': string too long. Expected a string with maximum length 64, but got a string with length ${body.user.length} instead.`,
      param: 'user',
      code: 'string_above_max_length',
    };
  }
  const tools = Array.isArray(body.tools) ? (body.tools as Array<{ function?: { name?: unknown } }>) : [];
  if (tools.length > 128) {
    return {
      message: `Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length ${tools.length} instead.`,
      param: 'tools',
      code: 'array_above_max_length',
    };
  }
  const bad = tools.findIndex((tool) => typeof tool.function?.name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(tool.function.name));
  if (bad >= 0) {
    return {
      message: `Invalid 'tools[${bad}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$' of at most 64 characters.`,
      param: `tools[${bad}].function.name`,
      code: 'invalid_value',
    };
  }
  return undefined;
}
