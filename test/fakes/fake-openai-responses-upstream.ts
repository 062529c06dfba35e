/**
 * A fake of OpenAI's Responses API (`POST /v1/responses`) on a real `node:http` server, written
 * from OpenAI's published wire format: the response object, JSON and SSE answers (named events
 * with `sequence_number` from 0: `response.created`, `.in_progress`, `.output_item.added`,
 * `.content_part.added`, `.output_text.delta`/`.done`, `.function_call_arguments.delta`/`.done`,
 * `.web_search_call.*`, `.output_item.done`, `.completed`), usage with cached and reasoning
 * token details, Bearer key checks. It behaves as OpenAI does with `store: false`: an input item
 * carrying an id the fake never issued, or a reasoning item without the encrypted content it
 * issued under that id, is refused ("Item with id … not found"), as is an unknown
 * `previous_response_id` or `item_reference`. What it answers is planned from the request:
 * a function call when `tool_choice` requires one (arguments valid against the schema), a
 * `web_search_call` and a cited answer when the hosted `web_search` tool is offered and the user
 * asks to search, JSON of the schema for `text.format` json_schema, a reasoning item (its
 * `encrypted_content` only when `include` asks) when `reasoning.effort` is set, else text that
 * says which user turn it answers. Every response and item id it issued is kept (`issuedIds`),
 * so a test can check that none reaches a client.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, readBody, sendJson } from './fake-http.js';
import { schemaInstance } from './schema-instance.js';

export const FAKE_RESPONSES_KEY = 'sk-fake-openai-responses';
const CREATED_AT = 1_700_000_000;

type Json = Record<string, unknown>;

export interface RecordedResponsesRequest {
  path: string;
  body: Json;
}

export interface FakeResponsesUpstream {
  /** Base URL including `/v1`. */
  url: string;
  requests: RecordedResponsesRequest[];
  /** Every response and item id the fake issued. */
  issuedIds: Set<string>;
  close(): Promise<void>;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly param: string | null,
  ) {
    super(message);
  }
}

function hexId(prefix: string): string {
  return `${prefix}_${randomBytes(24).toString('hex')}`;
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** The text of a message's content: a string, or its text parts. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (typeof (part as Json)?.text === 'string' ? ((part as Json).text as string) : '')).join(' ');
}

export async function startFakeResponsesUpstream(): Promise<FakeResponsesUpstream> {
  const requests: RecordedResponsesRequest[] = [];
  const issuedIds = new Set<string>();
  /** Encrypted reasoning the fake issued → the reasoning item's id. */
  const encrypted = new Map<string, string>();
  /** Responses stored (`store` not false) and their items, by id. */
  const stored = new Map<string, Json[]>();
  const storedItems = new Map<string, Json>();

  const issue = (prefix: string): string => {
    const id = hexId(prefix);
    issuedIds.add(id);
    return id;
  };

  /** OpenAI's checks of the input items, as with `store: false` and its own store. */
  function checkInput(body: Json): Json[] {
    const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
    if (!Array.isArray(input)) throw new Refusal(400, "Missing required parameter: 'input'.", 'input');
    const previous = body.previous_response_id;
    const history: Json[] = [];
    if (typeof previous === 'string') {
      const items = stored.get(previous);
      if (!items) throw new Refusal(400, `Previous response with id '${previous}' not found.`, 'previous_response_id');
      history.push(...items);
    }
    const items = (input as Json[]).map((item, i) => {
      if (item.type === 'item_reference') {
        const found = storedItems.get(String(item.id));
        if (!found) throw new Refusal(404, `Item with id '${String(item.id)}' not found.`, 'input');
        return found;
      }
      if (item.type === 'reasoning') {
        if (typeof item.id !== 'string') throw new Refusal(400, `Missing required parameter: 'input[${i}].id'.`, `input[${i}].id`);
        if (typeof item.encrypted_content !== 'string' || encrypted.get(item.encrypted_content) !== item.id) {
          throw new Refusal(
            404,
            `Item with id '${item.id}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`,
            'input',
          );
        }
      } else if (item.id !== undefined && !storedItems.has(String(item.id))) {
        throw new Refusal(404, `Item with id '${String(item.id)}' not found.`, 'input');
      }
      return item;
    });
    return [...history, ...items];
  }

  function plan(body: Json, input: Json[]): { output: Json[]; usage: Json } {
    const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
    const functions = tools.filter((tool) => tool.type === 'function');
    const userMessages = input.filter((item) => (item.type === undefined || item.type === 'message') && item.role === 'user');
    const lastUser = textOf(userMessages.at(-1)?.content);
    const last = input.at(-1);
    const include = Array.isArray(body.include) ? body.include : [];
    const reasoningConfig = (body.reasoning ?? {}) as Json;
    const output: Json[] = [];
    let reasoningTokens = 0;
    if (typeof reasoningConfig.effort === 'string') {
      const item: Json = { id: issue('rs'), type: 'reasoning', summary: [{ type: 'summary_text', text: 'Weighing the question.' }] };
      if (include.includes('reasoning.encrypted_content')) {
        const sealed = `gAAAA${randomBytes(18).toString('base64url')}`;
        encrypted.set(sealed, item.id as string);
        item.encrypted_content = sealed;
      }
      output.push(item);
      reasoningTokens = 6;
    }
    let text: string | undefined;
    const forced = body.tool_choice === 'required' || (body.tool_choice as Json | undefined)?.type === 'function';
    const searches = tools.some((tool) => tool.type === 'web_search' || tool.type === 'web_search_preview') && /search/i.test(lastUser);
    if (forced && functions.length > 0 && last?.type !== 'function_call_output') {
      const named = (body.tool_choice as Json | undefined)?.name;
      const tool = functions.find((f) => f.name === named) ?? functions[0];
      output.push({
        id: issue('fc'),
        type: 'function_call',
        status: 'completed',
        // A call id correlates a call with its output; it is not an item id (a gateway relays it as is).
        call_id: hexId('call'),
        name: tool.name,
        arguments: JSON.stringify(schemaInstance(tool.parameters)),
      });
    } else if (last?.type === 'function_call_output') {
      text = `The tool answered: ${textOf(last.output)}`;
    } else if (searches) {
      output.push({ id: issue('ws'), type: 'web_search_call', status: 'completed', action: { type: 'search', query: lastUser } });
      text = `Found it on the web (turn ${userMessages.length}).`;
    } else {
      const format = ((body.text ?? {}) as Json).format as Json | undefined;
      text = format?.type === 'json_schema' ? JSON.stringify(schemaInstance(format.schema)) : `Turn ${userMessages.length}: you said "${lastUser}"`;
    }
    if (text !== undefined) {
      const annotations = searches ? [{ type: 'url_citation', start_index: 0, end_index: 8, url: 'https://example.com/found', title: 'Found' }] : [];
      output.push({
        id: issue('msg'),
        type: 'message',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text, annotations, logprobs: [] }],
      });
    }
    const inputTokens = 1 + input.reduce((sum, item) => sum + words(textOf(item.content ?? item.output ?? '')), words(String(body.instructions ?? '')));
    const outputTokens = words(text ?? '') + reasoningTokens + (output.some((item) => item.type === 'function_call') ? 9 : 0);
    const cached = userMessages.length > 1 ? 4 : 0;
    return {
      output,
      usage: {
        input_tokens: inputTokens,
        input_tokens_details: { cached_tokens: cached },
        output_tokens: outputTokens,
        output_tokens_details: { reasoning_tokens: reasoningTokens },
        total_tokens: inputTokens + outputTokens,
      },
    };
  }

  function responseObject(body: Json, id: string, status: string, output: Json[], usage: Json | null): Json {
    return {
      id,
      object: 'response',
      created_at: CREATED_AT,
      status,
      background: false,
      error: null,
      incomplete_details: null,
      instructions: body.instructions ?? null,
      max_output_tokens: body.max_output_tokens ?? null,
      metadata: body.metadata ?? {},
      model: `${String(body.model)}-2025-08-07`,
      output,
      parallel_tool_calls: body.parallel_tool_calls ?? true,
      previous_response_id: body.previous_response_id ?? null,
      reasoning: { effort: (body.reasoning as Json | undefined)?.effort ?? null, summary: null },
      store: body.store !== false,
      temperature: body.temperature ?? 1,
      text: body.text ?? { format: { type: 'text' } },
      tool_choice: body.tool_choice ?? 'auto',
      tools: body.tools ?? [],
      top_p: body.top_p ?? 1,
      truncation: body.truncation ?? 'disabled',
      usage,
      user: null,
    };
  }

  function streamEvents(body: Json, id: string, output: Json[], usage: Json): Json[] {
    const events: Json[] = [];
    const at = (type: string, fields: Json) => events.push({ type, ...fields });
    at('response.created', { response: responseObject(body, id, 'in_progress', [], null) });
    at('response.in_progress', { response: responseObject(body, id, 'in_progress', [], null) });
    output.forEach((item, index) => {
      const itemId = item.id as string;
      if (item.type === 'message') {
        const part = (item.content as Json[])[0];
        const text = part.text as string;
        at('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', content: [] } });
        at('response.content_part.added', { item_id: itemId, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
        for (const piece of text.match(/\S+\s*/g) ?? []) {
          at('response.output_text.delta', { item_id: itemId, output_index: index, content_index: 0, delta: piece, logprobs: [] });
        }
        at('response.output_text.done', { item_id: itemId, output_index: index, content_index: 0, text, logprobs: [] });
        at('response.content_part.done', { item_id: itemId, output_index: index, content_index: 0, part });
      } else if (item.type === 'function_call') {
        at('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress', arguments: '' } });
        at('response.function_call_arguments.delta', { item_id: itemId, output_index: index, delta: item.arguments });
        at('response.function_call_arguments.done', { item_id: itemId, output_index: index, arguments: item.arguments });
      } else if (item.type === 'web_search_call') {
        at('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress' } });
        for (const phase of ['in_progress', 'searching', 'completed']) at(`response.web_search_call.${phase}`, { item_id: itemId, output_index: index });
      } else {
        const { encrypted_content: _later, ...added } = item;
        at('response.output_item.added', { output_index: index, item: added });
      }
      at('response.output_item.done', { output_index: index, item });
    });
    at('response.completed', { response: responseObject(body, id, 'completed', output, usage) });
    return events.map((event, i) => ({ type: event.type, sequence_number: i, ...event }));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const text = await readBody(req);
    const path = (req.url ?? '/').split('?')[0];
    if (req.headers.authorization !== `Bearer ${FAKE_RESPONSES_KEY}`) {
      return sendError(res, new Refusal(401, 'Incorrect API key provided.', null), 'invalid_api_key');
    }
    if (req.method !== 'POST' || path !== '/v1/responses') return sendError(res, new Refusal(404, `Invalid URL (${req.method} ${path})`, null));
    let body: Json;
    try {
      body = JSON.parse(text) as Json;
    } catch {
      return sendError(res, new Refusal(400, 'We could not parse the JSON body of your request.', null));
    }
    requests.push({ path, body });
    if (typeof body.model !== 'string') return sendError(res, new Refusal(400, "Missing required parameter: 'model'.", 'model'));
    let input: Json[];
    try {
      input = checkInput(body);
    } catch (error) {
      if (error instanceof Refusal) return sendError(res, error);
      throw error;
    }
    const id = issue('resp');
    const { output, usage } = plan(body, input);
    if (body.store !== false) {
      stored.set(id, [...input, ...output]);
      for (const item of output) storedItems.set(item.id as string, item);
    }
    res.setHeader('x-request-id', `req_${randomBytes(8).toString('hex')}`);
    if (body.stream !== true) return sendJson(res, 200, responseObject(body, id, 'completed', output, usage));
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
    for (const event of streamEvents(body, id, output, usage)) res.write(`event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
    res.end();
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, new Refusal(500, String(error), null));
      else res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1`, requests, issuedIds, close: () => closeServer(server) };
}

function sendError(res: ServerResponse, refusal: Refusal, code: string | null = null): void {
  const type = refusal.status >= 500 ? 'server_error' : 'invalid_request_error';
  sendJson(res, refusal.status, { error: { message: refusal.message, type, param: refusal.param, code } });
}
