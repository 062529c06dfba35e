/**
 * A fake Anthropic Messages API on a real socket, faithful to the published wire format:
 * authentication and version headers, the validation errors the real API gives for
 * non-alternating turns and missing fields, text or tool_use answers, SSE in the exact event
 * order (with ping and split input_json_delta), prompt-cache usage, and error scenarios.
 *
 * Scenarios, by model name containing them or by header `x-fake-scenario`:
 *   fail-400, fail-429 (retry-after: 7), fail-500, fail-529 — answer that error;
 *   midstream-error — stream a little text, then `event: error` overloaded_error.
 * Extended thinking (signed blocks, the real API's thinking rules): fake-anthropic-thinking.ts.
 * Server tools: a `web_search_*` tool in `tools` is "run" — the answer is a `server_tool_use`
 * block, its `web_search_tool_result`, then text citing the result, with
 * `usage.server_tool_use.web_search_requests`.
 * Structured outputs: `output_config.format` (json_schema) is checked as the API does (every
 * object closed with `additionalProperties: false`, no numeric or string bounds) and answered
 * with a text block of JSON valid against the schema.
 * Deterministic: the answer depends only on the request (and, for caching, on the prefixes
 * this server instance has already seen).
 * `answerWith` (scripted-turn.ts) lets a test decide the text or tool call from the request.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { addThinking, thinkingEvents, thinkingRequestError } from './fake-anthropic-thinking.js';
import { schemaExample } from './schema-example.js';
import { schemaInstance } from './schema-instance.js';
import { closeServer } from './fake-http.js';
import { ScriptSlot, type ScriptedStream } from './scripted-sse.js';
import type { TurnScript } from './scripted-turn.js';

export const FAKE_ANTHROPIC_KEY = 'sk-ant-fake-upstream-key';

export interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface FakeAnthropicUpstream {
  /** Base URL without `/v1`. */
  url: string;
  requests: RecordedRequest[];
  /** Answers the next message request with these exact bytes (see scripted-sse.ts). */
  replayNext(script: ScriptedStream): void;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

class FakeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

const SCENARIOS: Record<string, [number, string, string]> = {
  'fail-400': [400, 'invalid_request_error', 'fake scenario: invalid request'],
  'fail-429': [429, 'rate_limit_error', 'fake scenario: rate limited'],
  'fail-500': [500, 'api_error', 'fake scenario: internal server error'],
  'fail-529': [529, 'overloaded_error', 'Overloaded'],
};

function words(text: string): number {
  return text.split(/\s+/).filter((w) => w.length > 0).length;
}

/** A deterministic token count of any request fragment: words in its strings, plus one per block. */
function tokensOf(value: unknown): number {
  if (typeof value === 'string') return words(value);
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + tokensOf(item), 0);
  if (value && typeof value === 'object') {
    let sum = 1;
    for (const [key, inner] of Object.entries(value)) if (key !== 'cache_control' && key !== 'type') sum += tokensOf(inner);
    return sum;
  }
  return 0;
}

function validate(body: Json): void {
  if (typeof body.model !== 'string') throw new FakeApiError(400, 'invalid_request_error', 'model: Field required');
  if (body.max_tokens === undefined) throw new FakeApiError(400, 'invalid_request_error', 'max_tokens: Field required');
  if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) {
    throw new FakeApiError(400, 'invalid_request_error', 'max_tokens: Input should be greater than or equal to 1');
  }
  if (typeof body.temperature === 'number' && (body.temperature < 0 || body.temperature > 1)) {
    throw new FakeApiError(400, 'invalid_request_error', 'temperature: Input should be less than or equal to 1');
  }
  if (!Array.isArray(body.messages)) throw new FakeApiError(400, 'invalid_request_error', 'messages: Field required');
  // `role: "system"` turns (SystemMessageParam: a string or text blocks) may sit between the
  // others; the turn rules below apply to the user and assistant turns around them.
  (body.messages as Json[]).forEach((message, i) => {
    if (message?.role !== 'system') return;
    const content = message.content;
    const textOnly = typeof content === 'string' || (Array.isArray(content) && (content as Json[]).every((block) => block?.type === 'text'));
    if (!textOnly) throw new FakeApiError(400, 'invalid_request_error', `messages.${i}.content: system messages hold only text`);
  });
  const messages = (body.messages as Json[]).filter((message) => message?.role !== 'system');
  if (messages.length === 0) throw new FakeApiError(400, 'invalid_request_error', 'messages: at least one message is required');
  let previous: string | undefined;
  messages.forEach((message: Json, i) => {
    if (message.role !== 'user' && message.role !== 'assistant') {
      throw new FakeApiError(400, 'invalid_request_error', `messages.${i}.role: Input should be 'user' or 'assistant'`);
    }
    if (i === 0 && message.role !== 'user') throw new FakeApiError(400, 'invalid_request_error', 'messages: first message must use the "user" role');
    if (message.role === previous) {
      throw new FakeApiError(
        400,
        'invalid_request_error',
        `messages: roles must alternate between "user" and "assistant", but found multiple "${previous}" roles in a row`,
      );
    }
    previous = message.role as string;
    const content = message.content;
    if ((typeof content === 'string' && content.length === 0) || (Array.isArray(content) && content.length === 0)) {
      throw new FakeApiError(400, 'invalid_request_error', `messages.${i}: all messages must have non-empty content`);
    }
  });
  // Every tool_use must be answered by tool_result blocks, first in the very next user turn.
  messages.forEach((message: Json, i) => {
    if (message.role !== 'assistant' || !Array.isArray(message.content)) return;
    const ids = (message.content as Json[]).filter((b) => b.type === 'tool_use').map((b) => String(b.id));
    for (const id of ids) {
      if (!/^[a-zA-Z0-9_-]+$/.test(id)) {
        throw new FakeApiError(400, 'invalid_request_error', `messages.${i}.content: tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
      }
    }
    const next = messages[i + 1] as Json | undefined;
    if (ids.length === 0 || !next) return;
    const nextBlocks = Array.isArray(next.content) ? (next.content as Json[]) : [];
    const leading: string[] = [];
    for (const block of nextBlocks) {
      if (block.type !== 'tool_result') break;
      leading.push(String(block.tool_use_id));
    }
    const missing = ids.filter((id) => !leading.includes(id));
    if (missing.length > 0) {
      throw new FakeApiError(
        400,
        'invalid_request_error',
        `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    }
  });
  validateOutputConfig(body.output_config);
  if (((body.stop_sequences as unknown[] | undefined) ?? []).some((stop) => String(stop).trim().length === 0)) {
    throw new FakeApiError(400, 'invalid_request_error', 'stop_sequences: each stop sequence must contain non-whitespace');
  }
  const thinking = body.thinking as Json | undefined;
  if (thinking?.type === 'enabled' && (thinking.budget_tokens as number) >= (body.max_tokens as number)) {
    throw new FakeApiError(400, 'invalid_request_error', '`max_tokens` must be greater than `thinking.budget_tokens`');
  }
  const thinkingError = thinkingRequestError(body);
  if (thinkingError) throw new FakeApiError(400, 'invalid_request_error', thinkingError);
}

const UNSUPPORTED_SCHEMA_KEYWORDS = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern'];

function validateOutputConfig(value: unknown): void {
  if (value === undefined) return;
  const fail = (message: string): never => {
    throw new FakeApiError(400, 'invalid_request_error', message);
  };
  if (!value || typeof value !== 'object' || Array.isArray(value)) fail('output_config: Input should be an object');
  const format = (value as Json).format as Json | undefined | null;
  if (format === undefined || format === null) return;
  if (format.type !== 'json_schema') fail("output_config.format.type: Input should be 'json_schema'");
  if (!format.schema || typeof format.schema !== 'object') fail('output_config.format.schema: Field required');
  const check = (schema: unknown, at: string): void => {
    if (!schema || typeof schema !== 'object') return;
    const s = schema as Json;
    const isObject = s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'));
    if (isObject && s.additionalProperties !== false)
      fail(`output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false (at ${at})`);
    for (const keyword of UNSUPPORTED_SCHEMA_KEYWORDS) {
      if (keyword in s) fail(`output_config.format.schema: '${keyword}' is not supported (at ${at})`);
    }
    for (const [key, inner] of Object.entries((s.properties as Json | undefined) ?? {})) check(inner, `${at}.properties.${key}`);
    for (const [key, inner] of Object.entries((s.$defs as Json | undefined) ?? {})) check(inner, `${at}.$defs.${key}`);
    if (s.items) check(s.items, `${at}.items`);
    for (const [i, inner] of ((s.anyOf as unknown[] | undefined) ?? []).entries()) check(inner, `${at}.anyOf.${i}`);
  };
  check(format.schema, '$');
}

/** The request as an ordered list of cacheable fragments (tools, system, then messages' blocks). */
function fragments(body: Json): Array<{ value: unknown; cached: boolean }> {
  const list: Array<{ value: unknown; cached: boolean }> = [];
  const push = (value: unknown): void => {
    list.push({ value, cached: !!(value && typeof value === 'object' && (value as Json).cache_control) });
  };
  for (const tool of (body.tools as unknown[]) ?? []) push(tool);
  if (typeof body.system === 'string') push(body.system);
  else for (const block of (body.system as unknown[]) ?? []) push(block);
  for (const message of body.messages as Json[]) {
    if (typeof message.content === 'string') push(message.content);
    else for (const block of message.content as unknown[]) push(block);
  }
  return list;
}

interface Answer {
  id: string;
  content: Json[];
  stopReason: string;
  stopSequence: string | null;
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
    server_tool_use?: { web_search_requests: number };
  };
}

export const FAKE_SEARCH_RESULT = {
  type: 'web_search_result',
  title: 'Fake search result',
  url: 'https://example.com/fake-result',
  encrypted_content: 'ZmFrZQ==',
  page_age: null,
};

function lastUserText(messages: Json[]): string {
  const last = messages[messages.length - 1];
  if (typeof last.content === 'string') return last.content;
  return (last.content as Json[])
    .filter((b) => b.type === 'text')
    .map((b) => String(b.text))
    .join(' ');
}

class FakeAnthropic {
  private counter = 0;
  private readonly cachedPrefixes = new Set<string>();

  answer(body: Json, script?: TurnScript): Answer {
    this.counter++;
    const id = `msg_fake${String(this.counter).padStart(4, '0')}`;
    const turn = script?.(body);
    if (turn && 'text' in turn) {
      return {
        id,
        content: [{ type: 'text', text: turn.text }],
        stopReason: 'end_turn',
        stopSequence: null,
        usage: { ...this.inputUsage(body), output_tokens: words(turn.text) },
      };
    }
    if (turn) {
      const call = { type: 'tool_use', id: `toolu_fake${String(this.counter).padStart(4, '0')}`, name: turn.toolCall.name, input: turn.toolCall.args };
      return { id, content: [call], stopReason: 'tool_use', stopSequence: null, usage: { ...this.inputUsage(body), output_tokens: tokensOf(call.input) } };
    }
    const messages = (body.messages as Json[]).filter((message) => message.role !== 'system');
    const tools = (body.tools as Json[] | undefined) ?? [];
    const choice = (body.tool_choice as Json | undefined) ?? { type: 'auto' };
    const last = messages[messages.length - 1];
    const answersToolResult = Array.isArray(last.content) && (last.content as Json[]).some((b) => b.type === 'tool_result');
    const content: Json[] = [];
    let stopReason = 'end_turn';
    let stopSequence: string | null = null;
    let outputTokens = 0;

    const search = tools.find((t) => typeof t.type === 'string' && t.type.startsWith('web_search_'));
    if (search && choice.type !== 'none' && !answersToolResult) {
      const toolId = `srvtoolu_fake${String(this.counter).padStart(4, '0')}`;
      const text = `Fake search found: ${FAKE_SEARCH_RESULT.title}`;
      content.push(
        { type: 'server_tool_use', id: toolId, name: String(search.name), input: { query: lastUserText(messages) } },
        { type: 'web_search_tool_result', tool_use_id: toolId, content: [FAKE_SEARCH_RESULT] },
        { type: 'text', text },
      );
      const usage = { ...this.inputUsage(body), output_tokens: words(text) + 5, server_tool_use: { web_search_requests: 1 } };
      return { id, content, stopReason, stopSequence, usage };
    }
    if (tools.length > 0 && choice.type !== 'none' && !answersToolResult) {
      const tool = choice.type === 'tool' ? (tools.find((t) => t.name === choice.name) ?? tools[0]) : tools[0];
      if (choice.type === 'auto') {
        const preface = `I will use ${String(tool.name)}.`;
        content.push({ type: 'text', text: preface });
        outputTokens += words(preface);
      }
      const input = schemaExample(tool.input_schema);
      content.push({ type: 'tool_use', id: `toolu_fake${String(this.counter).padStart(4, '0')}`, name: tool.name, input });
      outputTokens += tokensOf(input);
      stopReason = 'tool_use';
    } else {
      const said = lastUserText(messages);
      const format = (body.output_config as Json | undefined)?.format as Json | undefined;
      let text = format ? JSON.stringify(schemaInstance(format.schema), null, 1) : `Hello from the fake Anthropic upstream. You said: ${said}`;
      const stops = (body.stop_sequences as string[] | undefined) ?? [];
      for (const stop of stops) {
        const at = text.indexOf(stop);
        if (at >= 0) {
          text = text.slice(0, at);
          stopReason = 'stop_sequence';
          stopSequence = stop;
        }
      }
      const all = text.split(' ');
      const max = body.max_tokens as number;
      if (all.length > max) {
        text = all.slice(0, max).join(' ');
        stopReason = 'max_tokens';
        stopSequence = null;
      }
      content.push({ type: 'text', text });
      outputTokens = words(text);
    }

    return { id, content, stopReason, stopSequence, usage: { ...this.inputUsage(body), output_tokens: outputTokens } };
  }

  /** Input usage with a prompt cache: the prefix up to the last cache_control breakpoint is written once, then read. */
  private inputUsage(body: Json): Omit<Answer['usage'], 'output_tokens'> {
    const parts = fragments(body);
    let total = 0;
    let prefixTokens = 0;
    let prefixEnd = -1;
    parts.forEach((part, i) => {
      total += tokensOf(part.value);
      if (part.cached) {
        prefixEnd = i;
        prefixTokens = total;
      }
    });
    if (prefixEnd < 0) return { input_tokens: total, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const key = `${String(body.model)}|${JSON.stringify(parts.slice(0, prefixEnd + 1).map((p) => p.value))}`;
    const seen = this.cachedPrefixes.has(key);
    this.cachedPrefixes.add(key);
    return {
      input_tokens: total - prefixTokens,
      cache_creation_input_tokens: seen ? 0 : prefixTokens,
      cache_read_input_tokens: seen ? prefixTokens : 0,
    };
  }
}

function sendError(res: ServerResponse, status: number, type: string, message: string, requestId: string): void {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'request-id': requestId };
  if (status === 429) headers['retry-after'] = '7';
  if (status === 529) headers['x-should-retry'] = 'true';
  res.writeHead(status, headers);
  res.end(JSON.stringify({ type: 'error', error: { type, message }, request_id: requestId }));
}

function event(res: ServerResponse, name: string, payload: Json): void {
  res.write(`event: ${name}\ndata: ${JSON.stringify({ type: name, ...payload })}\n\n`);
}

/** Splits a string into `count` nearly equal pieces (the first may be empty, as the real API sends). */
function pieces(text: string, count: number): string[] {
  const size = Math.ceil(text.length / count);
  const out: string[] = [''];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function stream(res: ServerResponse, body: Json, answer: Answer, requestId: string, midstreamError: boolean): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'request-id': requestId });
  const { output_tokens, server_tool_use, ...input } = answer.usage;
  event(res, 'message_start', {
    message: {
      id: answer.id,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...input, output_tokens: 1 },
    },
  });
  event(res, 'ping', {});
  for (const [index, block] of answer.content.entries()) {
    if (block.type === 'text') {
      event(res, 'content_block_start', { index, content_block: { type: 'text', text: '' } });
      const parts = String(block.text).split(/(?<= )/);
      for (let i = 0; i < parts.length; i += 2) {
        event(res, 'content_block_delta', { index, delta: { type: 'text_delta', text: parts.slice(i, i + 2).join('') } });
        if (midstreamError) {
          res.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })}\n\n`);
          return;
        }
      }
    } else if (block.type === 'thinking') {
      for (const [name, payload] of thinkingEvents(index, block)) event(res, name, payload);
    } else if (block.type === 'web_search_tool_result') {
      event(res, 'content_block_start', { index, content_block: block });
    } else {
      event(res, 'content_block_start', { index, content_block: { type: block.type, id: block.id, name: block.name, input: {} } });
      for (const partial of pieces(JSON.stringify(block.input), 3)) {
        event(res, 'content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: partial } });
      }
    }
    event(res, 'content_block_stop', { index });
  }
  const finalUsage = server_tool_use ? { output_tokens, server_tool_use } : { output_tokens };
  event(res, 'message_delta', { delta: { stop_reason: answer.stopReason, stop_sequence: answer.stopSequence }, usage: finalUsage });
  event(res, 'message_stop', {});
  res.end();
}

export async function startFakeAnthropicUpstream(options: { answerWith?: TurnScript } = {}): Promise<FakeAnthropicUpstream> {
  const requests: RecordedRequest[] = [];
  const fake = new FakeAnthropic();
  let served = 0;
  const scripts = new ScriptSlot();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      served++;
      const requestId = `req_fake${String(served).padStart(4, '0')}`;
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = text.length > 0 ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const path = (req.url ?? '/').split('?')[0];
      requests.push({ path, headers: req.headers, body });
      try {
        if (req.method !== 'POST' || path !== '/v1/messages') throw new FakeApiError(404, 'not_found_error', `Not Found: ${path}`);
        if (req.headers['x-api-key'] !== FAKE_ANTHROPIC_KEY) throw new FakeApiError(401, 'authentication_error', 'invalid x-api-key');
        if (scripts.answer(res)) return;
        if (!req.headers['anthropic-version']) throw new FakeApiError(400, 'invalid_request_error', 'anthropic-version: header is required');
        if (!body || typeof body !== 'object' || Array.isArray(body)) {
          throw new FakeApiError(400, 'invalid_request_error', 'There was an issue with your request body: expected a JSON object');
        }
        const json = body as Json;
        const scenario = String(req.headers['x-fake-scenario'] ?? '') || Object.keys(SCENARIOS).find((s) => String(json.model).includes(s)) || '';
        const failure = SCENARIOS[scenario];
        if (failure) throw new FakeApiError(...failure);
        validate(json);
        const answer = fake.answer(json, options.answerWith);
        addThinking(json, answer);
        const midstream = scenario === 'midstream-error' || String(json.model).includes('midstream-error');
        if (json.stream === true) return stream(res, json, answer, requestId, midstream);
        res.writeHead(200, { 'content-type': 'application/json', 'request-id': requestId });
        res.end(
          JSON.stringify({
            id: answer.id,
            type: 'message',
            role: 'assistant',
            model: json.model,
            content: answer.content,
            stop_reason: answer.stopReason,
            stop_sequence: answer.stopSequence,
            usage: answer.usage,
          }),
        );
      } catch (error) {
        if (error instanceof FakeApiError) return sendError(res, error.status, error.type, error.message, requestId);
        return sendError(res, 500, 'api_error', String(error), requestId);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    replayNext: (script) => scripts.replayNext(script),
    close: () => closeServer(server),
  };
}
