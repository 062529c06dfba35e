/**
 * A fake Gemini API (Generative Language, `v1beta` and `v1`) on a real socket, faithful to
 * the published wire format: API key in `x-goog-api-key` or `?key=` with Google's answers to
 * a missing or wrong key; proto3 JSON input (camelCase or snake_case) with Google's
 * "Unknown name" rejection of fields the API does not have, so translation bugs surface;
 * the function-calling turn rules; text or complete `functionCall` answers; `alt=sse`
 * streams (one-line `data:` chunks, CRLF framing, no event lines, no [DONE]) or, without
 * it, a streamed JSON array; usage with cached and thought tokens; and error scenarios.
 *
 * Scenarios, by model name containing them or by header `x-fake-scenario`:
 *   fail-400, fail-404, fail-429 (RetryInfo 7s), fail-500, fail-503 — answer that error;
 *   midstream-error — stream some text, then an `{"error":…}` chunk;
 *   blocked — `promptFeedback.blockReason: SAFETY` and no candidates.
 * Structured output: `responseMimeType: application/json` with `responseJsonSchema` (JSON
 * Schema) or `responseSchema` (the OpenAPI subset, checked as the API checks it: known fields
 * only, upper-case type names, OBJECTs with properties) answers JSON valid against the schema.
 * Deterministic: the answer depends only on the request and the number of requests served.
 * Embeddings (`:embedContent`, `:batchEmbedContents`): see fake-gemini-embeddings.ts.
 * `answerWith` (scripted-turn.ts) lets a test decide the text or function call from the request.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerGeminiEmbedding } from './fake-gemini-embeddings.js';
import { schemaExample } from './schema-example.js';
import { schemaInstance } from './schema-instance.js';
import { closeServer } from './fake-http.js';
import { ScriptSlot, type ScriptedStream } from './scripted-sse.js';
import type { TurnScript } from './scripted-turn.js';

export const FAKE_GEMINI_KEY = 'fake-gemini-upstream-key';
/** Tokens a request naming `cachedContent` reads from the cache (added to its prompt). */
export const FAKE_CACHED_TOKENS = 32;
export const FAKE_THOUGHT = 'Let me think this through.';

export interface FakeGeminiRequest {
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface FakeGeminiUpstream {
  /** Base URL without the API version (what `httpOptions.baseUrl` and channel base URLs take). */
  url: string;
  requests: FakeGeminiRequest[];
  /** Answers the next generate request with these exact bytes (see scripted-sse.ts). */
  replayNext(script: ScriptedStream): void;
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

class GoogleError extends Error {
  constructor(
    readonly code: number,
    readonly status: string,
    message: string,
    readonly details?: unknown[],
  ) {
    super(message);
  }
}

const SCENARIOS: Record<string, GoogleError> = {
  'fail-400': new GoogleError(400, 'INVALID_ARGUMENT', 'fake scenario: request contains an invalid argument.'),
  'fail-404': new GoogleError(404, 'NOT_FOUND', 'models/fail-404 is not found for API version v1beta, or is not supported for generateContent.'),
  'fail-429': new GoogleError(429, 'RESOURCE_EXHAUSTED', 'You exceeded your current quota, please check your plan and billing details.', [
    { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '7s' },
  ]),
  'fail-500': new GoogleError(
    500,
    'INTERNAL',
    'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  ),
  'fail-503': new GoogleError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.'),
};
const MIDSTREAM_ERROR = new GoogleError(
  500,
  'INTERNAL',
  'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
);

// ---- proto3 field names -------------------------------------------------------------------

interface MessageSpec {
  fields: Record<string, MessageSpec | 'scalar' | 'struct'>;
}
const scalar = 'scalar' as const;
const struct = 'struct' as const;
const spec = (fields: MessageSpec['fields']): MessageSpec => ({ fields });

const BLOB = spec({ mimeType: scalar, data: scalar, displayName: scalar });
const PART = spec({
  text: scalar,
  thought: scalar,
  thoughtSignature: scalar,
  inlineData: BLOB,
  fileData: spec({ mimeType: scalar, fileUri: scalar, displayName: scalar }),
  functionCall: spec({ id: scalar, name: scalar, args: struct }),
  functionResponse: spec({ id: scalar, name: scalar, response: struct, parts: struct, willContinue: scalar, scheduling: scalar }),
  executableCode: struct,
  codeExecutionResult: struct,
  videoMetadata: struct,
  partMetadata: struct,
  mediaResolution: struct,
});
const CONTENT = spec({ role: scalar, parts: PART });
const REQUEST = spec({
  model: scalar,
  contents: CONTENT,
  systemInstruction: CONTENT,
  tools: spec({
    functionDeclarations: spec({
      name: scalar,
      description: scalar,
      behavior: scalar,
      parameters: struct,
      parametersJsonSchema: struct,
      response: struct,
      responseJsonSchema: struct,
    }),
    googleSearch: struct,
    googleSearchRetrieval: struct,
    codeExecution: struct,
    urlContext: struct,
    computerUse: struct,
    fileSearch: struct,
    googleMaps: struct,
  }),
  toolConfig: spec({ functionCallingConfig: spec({ mode: scalar, allowedFunctionNames: scalar }), retrievalConfig: struct }),
  safetySettings: spec({ category: scalar, threshold: scalar }),
  generationConfig: spec({
    stopSequences: scalar,
    responseMimeType: scalar,
    responseSchema: struct,
    responseJsonSchema: struct,
    responseModalities: scalar,
    candidateCount: scalar,
    maxOutputTokens: scalar,
    temperature: scalar,
    topP: scalar,
    topK: scalar,
    seed: scalar,
    presencePenalty: scalar,
    frequencyPenalty: scalar,
    responseLogprobs: scalar,
    logprobs: scalar,
    enableEnhancedCivicAnswers: scalar,
    speechConfig: struct,
    thinkingConfig: spec({ includeThoughts: scalar, thinkingBudget: scalar, thinkingLevel: scalar }),
    imageConfig: struct,
    mediaResolution: scalar,
  }),
  cachedContent: scalar,
  serviceTier: scalar,
  store: scalar,
});
const COUNT_REQUEST = spec({ contents: CONTENT, generateContentRequest: REQUEST });

function camel(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Rejects unknown fields like the real proto3 JSON parser, and returns a camelCase copy. */
function normalize(value: unknown, message: MessageSpec, at: string): unknown {
  if (Array.isArray(value)) return value.map((item, i) => normalize(item, message, `${at}[${i}]`));
  if (value === null || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value as Json)) {
    const name = camel(key);
    const field = message.fields[name];
    if (field === undefined) {
      const where = at.length > 0 ? ` at '${at}'` : '';
      throw new GoogleError(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. Unknown name "${key}"${where}: Cannot find field.`, [
        {
          '@type': 'type.googleapis.com/google.rpc.BadRequest',
          fieldViolations: [
            { field: at.length > 0 ? `${at}.${key}` : key, description: `Invalid JSON payload received. Unknown name "${key}"${where}: Cannot find field.` },
          ],
        },
      ]);
    }
    const path = at.length > 0 ? `${at}.${snake(name)}` : snake(name);
    out[name] = typeof field === 'object' ? normalize(inner, field, path) : inner;
  }
  return out;
}

// ---- request rules -----------------------------------------------------------------------

function invalid(message: string): GoogleError {
  return new GoogleError(400, 'INVALID_ARGUMENT', message);
}

function validate(body: Json): void {
  const contents = body.contents as Json[] | undefined;
  if (!Array.isArray(contents) || contents.length === 0) throw invalid('* GenerateContentRequest.contents: contents is not specified\n');
  contents.forEach((content, i) => {
    if (content.role !== undefined && content.role !== '' && content.role !== 'user' && content.role !== 'model') {
      throw invalid('Please use a valid role: user, model.');
    }
    if (!Array.isArray(content.parts) || content.parts.length === 0) {
      throw invalid(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n`);
    }
    for (const part of content.parts as Json[]) {
      const data = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse', 'executableCode', 'codeExecutionResult'];
      if (!data.some((name) => part[name] !== undefined) && part.thoughtSignature === undefined) {
        throw invalid(`* GenerateContentRequest.contents[${i}].parts[0].data: required oneof field 'data' must have one initialized field\n`);
      }
    }
  });
  // A function-response turn must follow the function-call turn and answer every call.
  contents.forEach((content, i) => {
    const responses = (content.parts as Json[]).filter((p) => p.functionResponse !== undefined).length;
    if (responses === 0) return;
    const previous = contents[i - 1];
    const calls = previous?.role === 'model' ? (previous.parts as Json[]).filter((p) => p.functionCall !== undefined).length : 0;
    if (calls === 0) {
      throw invalid(
        'Please ensure that function response turn comes immediately after a function call turn. And the number of function response parts should be equal to number of function call parts of the function call turn.',
      );
    }
    if (calls !== responses) {
      throw invalid('Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.');
    }
  });
  for (const tool of (body.tools as Json[] | undefined) ?? []) {
    for (const declaration of (tool.functionDeclarations as Json[] | undefined) ?? []) {
      if (declaration.parameters !== undefined && declaration.parametersJsonSchema !== undefined) {
        throw invalid('`parameters` and `parameters_json_schema` cannot both be set.');
      }
      // The reference: a letter or underscore first, then a-z, A-Z, 0-9, _, ., :, -, at most 64 characters.
      if (typeof declaration.name !== 'string' || !/^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$/.test(declaration.name)) {
        throw invalid(`* GenerateContentRequest.tools[0].function_declarations: invalid function name ${JSON.stringify(declaration.name)}\n`);
      }
    }
  }
  const config = (body.generationConfig as Json | undefined) ?? {};
  validateResponseSchema(config);
  if (typeof config.temperature === 'number' && (config.temperature < 0 || config.temperature > 2)) {
    throw invalid('* GenerateContentRequest.generation_config.temperature: must be in the range [0.0, 2.0]\n');
  }
  if (Array.isArray(config.stopSequences) && config.stopSequences.length > 5) {
    throw invalid('* GenerateContentRequest.generation_config.stop_sequences: at most 5 stop sequences are allowed\n');
  }
}

const SCHEMA_FIELDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'anyOf',
  'propertyOrdering',
  'default',
  'items',
  'minimum',
  'maximum',
]);
const SCHEMA_TYPES = new Set(['TYPE_UNSPECIFIED', 'STRING', 'NUMBER', 'INTEGER', 'BOOLEAN', 'ARRAY', 'OBJECT', 'NULL']);

function validateResponseSchema(config: Json): void {
  const hasSchema = config.responseSchema !== undefined;
  const hasJsonSchema = config.responseJsonSchema !== undefined;
  if (hasSchema && hasJsonSchema) throw invalid('`response_schema` and `response_json_schema` cannot both be set.');
  if ((hasSchema || hasJsonSchema) && config.responseMimeType !== 'application/json') {
    throw invalid('* GenerateContentRequest.generation_config.response_mime_type: must be application/json when a response schema is set.\n');
  }
  if (hasSchema) checkOpenApiSchema(config.responseSchema, 'generation_config.response_schema');
}

/**
 * The proto `Schema` message: unknown names and unknown types are refused. Type names are read
 * whatever their case, as the real API does (the Vercel AI SDK's Google provider sends `object`).
 */
function checkOpenApiSchema(value: unknown, at: string): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid(`Invalid value at '${at}': expected an object.`);
  const schema = value as Json;
  for (const key of Object.keys(schema)) {
    if (!SCHEMA_FIELDS.has(key)) throw invalid(`Invalid JSON payload received. Unknown name "${key}" at '${at}': Cannot find field.`);
  }
  if (schema.type !== undefined && !SCHEMA_TYPES.has(String(schema.type).toUpperCase())) {
    throw invalid(`Invalid value at '${at}.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ${JSON.stringify(schema.type)}`);
  }
  const properties = (schema.properties as Json | undefined) ?? {};
  if (String(schema.type).toUpperCase() === 'OBJECT' && Object.keys(properties).length === 0) {
    throw invalid(`* GenerateContentRequest.${at}.properties: should be non-empty for OBJECT type\n`);
  }
  for (const [name, inner] of Object.entries(properties)) checkOpenApiSchema(inner, `${at}.properties[${name}].value`);
  if (schema.items !== undefined) checkOpenApiSchema(schema.items, `${at}.items`);
  for (const [i, inner] of ((schema.anyOf as unknown[] | undefined) ?? []).entries()) checkOpenApiSchema(inner, `${at}.any_of[${i}]`);
}

// ---- answers -----------------------------------------------------------------------------

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w.length > 0);
}

/** A deterministic token count: words in every string of the fragment except roles and types. */
function tokensOf(value: unknown): number {
  if (typeof value === 'string') return words(value).length;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + tokensOf(item), 0);
  if (value && typeof value === 'object') {
    let sum = 0;
    for (const [key, inner] of Object.entries(value)) if (key !== 'role' && key !== 'type') sum += tokensOf(inner);
    return sum;
  }
  return 0;
}

interface Answer {
  parts: Json[];
  finishReason: string;
  usage: Json;
  blocked: boolean;
}

function answer(body: Json, script?: TurnScript): Answer {
  const contents = body.contents as Json[];
  const last = contents[contents.length - 1];
  const lastParts = last.parts as Json[];
  const config = (body.generationConfig as Json | undefined) ?? {};
  const thinking = (config.thinkingConfig as Json | undefined) ?? {};
  const declarations = ((body.tools as Json[] | undefined) ?? []).flatMap((t) => (t.functionDeclarations as Json[] | undefined) ?? []);
  const calling = ((body.toolConfig as Json | undefined)?.functionCallingConfig as Json | undefined) ?? {};
  const mode = (calling.mode as string | undefined) ?? 'AUTO';
  const response = lastParts.find((p) => p.functionResponse !== undefined)?.functionResponse as Json | undefined;

  const parts: Json[] = [];
  let thoughts = 0;
  if (thinking.includeThoughts === true && thinking.thinkingBudget !== 0) {
    parts.push({ text: FAKE_THOUGHT, thought: true });
    thoughts = words(FAKE_THOUGHT).length;
  }
  let finishReason = 'STOP';
  let output = 0;
  const turn = script?.(body);
  if (turn && 'text' in turn) {
    parts.push({ text: turn.text });
    output = words(turn.text).length;
  } else if (turn) {
    parts.push({ functionCall: { name: turn.toolCall.name, args: turn.toolCall.args } });
    output = 1 + tokensOf(turn.toolCall.args);
  } else if (declarations.length > 0 && mode !== 'NONE' && response === undefined) {
    const allowed = calling.allowedFunctionNames as string[] | undefined;
    const declaration = declarations.find((d) => !allowed || allowed.includes(String(d.name))) ?? declarations[0];
    const args = schemaExample(declaration.parametersJsonSchema ?? declaration.parameters) as Json;
    parts.push({ functionCall: { name: declaration.name, args } });
    output = 1 + tokensOf(args);
  } else {
    const structured = config.responseMimeType === 'application/json';
    const text = structured
      ? JSON.stringify(
          schemaInstance(config.responseJsonSchema ?? config.responseSchema ?? { type: 'object', properties: { answer: { type: 'string' } } }),
          null,
          1,
        )
      : response
        ? `The function ${String(response.name)} returned ${JSON.stringify(response.response)}.`
        : `Fake Gemini says: ${lastParts
            .map((p) => (typeof p.text === 'string' ? p.text : ''))
            .join(' ')
            .trim()}`;
    let reply = words(text);
    const max = config.maxOutputTokens as number | undefined;
    if (typeof max === 'number' && reply.length > max) {
      reply = reply.slice(0, max);
      finishReason = 'MAX_TOKENS';
    }
    parts.push({ text: reply.join(' ') });
    output = reply.length;
  }
  const cached = typeof body.cachedContent === 'string' ? FAKE_CACHED_TOKENS : 0;
  const prompt = tokensOf(body.contents) + tokensOf(body.systemInstruction) + tokensOf(body.tools) + cached;
  const usage: Json = { promptTokenCount: prompt, candidatesTokenCount: output, totalTokenCount: prompt + output + thoughts };
  if (cached > 0) usage.cachedContentTokenCount = cached;
  if (thoughts > 0) usage.thoughtsTokenCount = thoughts;
  usage.promptTokensDetails = [{ modality: 'TEXT', tokenCount: prompt }];
  return { parts, finishReason, usage, blocked: false };
}

/** A streamed answer: thoughts, then text in pieces of up to three words, or the whole call; the last chunk finishes. */
function streamChunks(result: Answer, model: string, responseId: string): Json[] {
  const pieces: Json[][] = [];
  for (const part of result.parts) {
    if (typeof part.text === 'string' && part.thought !== true) {
      const list = words(part.text);
      for (let i = 0; i < list.length; i += 3) pieces.push([{ text: (i > 0 ? ' ' : '') + list.slice(i, i + 3).join(' ') }]);
      if (list.length === 0) pieces.push([{ text: '' }]);
    } else {
      pieces.push([part]);
    }
  }
  const prompt = result.usage.promptTokenCount as number;
  return pieces.map((parts, i) => {
    const final = i === pieces.length - 1;
    const candidate: Json = { content: { parts, role: 'model' }, index: 0 };
    if (final) candidate.finishReason = result.finishReason;
    const usage = final ? result.usage : { promptTokenCount: prompt, totalTokenCount: prompt, promptTokensDetails: result.usage.promptTokensDetails };
    return { candidates: [candidate], usageMetadata: usage, modelVersion: model, responseId };
  });
}

// ---- HTTP --------------------------------------------------------------------------------

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  res.end(JSON.stringify(body, null, 2));
}

function sendError(res: ServerResponse, error: GoogleError): void {
  const body: Json = { code: error.code, message: error.message, status: error.status };
  if (error.details) body.details = error.details;
  sendJson(res, error.code, { error: body });
}

function checkKey(headers: IncomingHttpHeaders, query: Record<string, string>, expected: string): void {
  const header = headers['x-goog-api-key'];
  const key = typeof header === 'string' ? header : query.key;
  if (key === undefined) {
    if (typeof headers.authorization === 'string') {
      throw new GoogleError(
        401,
        'UNAUTHENTICATED',
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      );
    }
    throw new GoogleError(
      403,
      'PERMISSION_DENIED',
      "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
    );
  }
  if (key !== expected) {
    throw new GoogleError(400, 'INVALID_ARGUMENT', 'API key not valid. Please pass a valid API key.', [
      { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' },
    ]);
  }
}

export async function startFakeGeminiUpstream(options: { apiKey?: string; answerWith?: TurnScript } = {}): Promise<FakeGeminiUpstream> {
  const apiKey = options.apiKey ?? FAKE_GEMINI_KEY;
  const requests: FakeGeminiRequest[] = [];
  let served = 0;
  const scripts = new ScriptSlot();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const query = Object.fromEntries(url.searchParams);
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = text.length > 0 ? JSON.parse(text) : undefined;
      } catch {
        // Recorded as text; answered below.
      }
      requests.push({ path: url.pathname, query, headers: req.headers, body });
      try {
        handle(req.method ?? 'GET', url.pathname, query, req.headers, text, res);
      } catch (error) {
        if (error instanceof GoogleError) sendError(res, error);
        else sendError(res, new GoogleError(500, 'INTERNAL', String(error)));
      }
    });
  });

  function handle(method: string, path: string, query: Record<string, string>, headers: IncomingHttpHeaders, text: string, res: ServerResponse): void {
    checkKey(headers, query, apiKey);
    const embed = /^\/(v1beta|v1)\/models\/([^/:]+):(embedContent|batchEmbedContents)$/.exec(path);
    if (embed && method === 'POST') {
      const answer = answerGeminiEmbedding(embed[3] as 'embedContent' | 'batchEmbedContents', embed[2], text);
      return sendJson(res, answer.status, answer.body);
    }
    const match = /^\/(v1beta|v1)\/models\/([^/:]+):(generateContent|streamGenerateContent|countTokens)$/.exec(path);
    if (!match || method !== 'POST') throw new GoogleError(404, 'NOT_FOUND', 'Method not found.');
    const [, , model, action] = match;
    if (action !== 'countTokens' && scripts.answer(res)) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw invalid(`Invalid JSON payload received. Unexpected token.\n${text.slice(0, 40)}\n^`);
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw invalid('Invalid JSON payload received. Expected an object.');
    const header = headers['x-fake-scenario'];
    const scenario =
      typeof header === 'string'
        ? header
        : Object.keys(SCENARIOS)
            .concat('midstream-error', 'blocked')
            .find((s) => model.includes(s));
    if (scenario && SCENARIOS[scenario]) throw SCENARIOS[scenario];

    if (action === 'countTokens') {
      const request = normalize(parsed, COUNT_REQUEST, '') as Json;
      const inner = request.generateContentRequest as Json | undefined;
      const total = inner ? tokensOf(inner.contents) + tokensOf(inner.systemInstruction) + tokensOf(inner.tools) : tokensOf(request.contents);
      sendJson(res, 200, { totalTokens: total, promptTokensDetails: [{ modality: 'TEXT', tokenCount: total }] });
      return;
    }

    const body = normalize(parsed, REQUEST, '') as Json;
    validate(body);
    served++;
    const responseId = `fake-response-${served}`;
    const result = scenario === 'blocked' ? blockedAnswer(body) : answer(body, options.answerWith);
    if (action === 'generateContent') {
      if (scenario === 'midstream-error') throw MIDSTREAM_ERROR;
      const count = ((body.generationConfig as Json | undefined)?.candidateCount as number | undefined) ?? 1;
      sendJson(res, 200, whole(result, model, responseId, count));
      return;
    }
    const chunks = result.blocked ? [whole(result, model, responseId)] : streamChunks(result, model, responseId);
    const failing = scenario === 'midstream-error';
    const sent = failing ? chunks.slice(0, 1) : chunks;
    const midError = { error: { code: MIDSTREAM_ERROR.code, message: MIDSTREAM_ERROR.message, status: MIDSTREAM_ERROR.status } };
    if (query.alt === 'sse') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const chunk of sent) res.write(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
      if (failing) res.write(`data: ${JSON.stringify(midError)}\r\n\r\n`);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
    const items = failing ? [...sent, midError] : sent;
    items.forEach((item, i) => res.write(`${i === 0 ? '[' : '\n,\r\n'}${JSON.stringify(item, null, 2)}`));
    res.end('\n]');
  }

  /** `candidateCount` candidates (the same answer in each), output tokens counted for all, as Google does. */
  function whole(result: Answer, model: string, responseId: string, count = 1): Json {
    if (result.blocked) return { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: result.usage, modelVersion: model, responseId };
    if (count < 1 || count > 8) throw invalid('* GenerateContentRequest.generation_config.candidate_count: must be between 1 and 8\n');
    const output = ((result.usage.candidatesTokenCount as number) ?? 0) * count;
    return {
      candidates: Array.from({ length: count }, (_, index) => ({ content: { parts: result.parts, role: 'model' }, finishReason: result.finishReason, index })),
      usageMetadata:
        count === 1
          ? result.usage
          : {
              ...result.usage,
              candidatesTokenCount: output,
              totalTokenCount: (result.usage.totalTokenCount as number) + output - (result.usage.candidatesTokenCount as number),
            },
      modelVersion: model,
      responseId,
    };
  }

  function blockedAnswer(body: Json): Answer {
    const prompt = tokensOf(body.contents);
    return { parts: [], finishReason: 'OTHER', usage: { promptTokenCount: prompt, totalTokenCount: prompt }, blocked: true };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    replayNext: (script) => scripts.replayNext(script),
    close: () => closeServer(server),
  };
}
