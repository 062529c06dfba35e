/**
 * A fake AWS Bedrock runtime on `node:http`, following AWS's published wire formats:
 * - Every request must carry a valid AWS Signature Version 4 (`AWS4-HMAC-SHA256`, service
 *   `bedrock`, this fake's region, `BEDROCK_REGION` unless started with another), recomputed here by hand from the received method, raw path,
 *   signed headers and body (canonical URI: each path segment URI-encoded once more, as AWS does
 *   for every service but S3) and compared in constant time. Unknown key: 403
 *   UnrecognizedClientException; wrong signature or a date more than five minutes off: 403
 *   InvalidSignatureException; the session token `expired-token`: 403 ExpiredTokenException.
 * - `POST /model/<id>/converse` and `/converse-stream`: the Converse API, answered here with
 *   deterministic text (or a `toolUse` of the first tool when tools are offered and the last turn
 *   is not a tool result) and usage; the stream as `application/vnd.amazon.eventstream` frames
 *   (messageStart, contentBlockStart/Delta/Stop, messageStop, metadata) encoded byte for byte by
 *   the AWS SDK's event-stream codec.
 * - `POST /model/<id>/invoke` and `/invoke-with-response-stream` for Claude: the Messages body
 *   with `anthropic_version: bedrock-2023-05-31` and no `model` or `stream`, relayed to the
 *   Anthropic fake; the stream comes back as `chunk` frames whose payload is
 *   `{"bytes": "<base64 of each SSE event's JSON>"}`.
 * - `POST /model/amazon.titan-embed-text-v2:0/invoke`: `{inputText, dimensions?, normalize?}` →
 *   `{embedding, inputTextTokenCount}` (dimensions 256, 512 or 1024, default 1024).
 * - Instead of a signature, an Amazon Bedrock API key as `Authorization: Bearer <key>`: this fake
 *   trusts one long-term (`ABSK…`) and one short-term (`bedrock-api-key-…`) key. A key of neither
 *   shape: 403 `Invalid API Key format`; an unknown key of a right shape: 403 `Authentication
 *   failed`, both as `{"Message"}` without an error type, as Bedrock answers them.
 * - `POST /model/cohere.embed-{english,multilingual}-v3/invoke` and `cohere.embed-v4:0`: Cohere
 *   Embed as Bedrock documents it: `{texts, input_type, truncate?, embedding_types?}` (v4 also
 *   `output_dimension`, `max_tokens`), at most 96 texts; answered `{id, texts, embeddings,
 *   response_type}` with `embeddings` a list of float vectors (`embeddings_floats`) when v3 is
 *   asked for no embedding types, or v4 for a single one, else an object keyed by type
 *   (`embeddings_by_type`). No token count in the body: Bedrock's InvokeModel answers carry
 *   `X-Amzn-Bedrock-Input-Token-Count` instead (here, on Titan and Cohere answers: the words of
 *   the texts), except for the model `cohere.embed-english-v3-noheader`, which leaves it out.
 * - Converse's tool rules: a conversation holding `toolUse` or `toolResult` blocks needs a
 *   `toolConfig`, whose `tools` may not be empty and whose `toolChoice` is `auto`, `any` or `tool`.
 * Errors are Bedrock's: the status, `x-amzn-ErrorType` and a JSON `{"message"}`.
 * Scenarios by model id: one containing `throttled` answers 429 ThrottlingException (with a
 * Retry-After, which Bedrock does not promise but a gateway must relay when present); one
 * containing `bad-crc` streams a valid messageStart and then a frame whose CRC is wrong; one
 * containing `stream-throttled` streams a throttlingException exception frame.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { FAKE_ANTHROPIC_KEY } from './fake-anthropic-upstream.js';
import { fakeEmbeddingValues } from './fake-embedding-values.js';
import { closeServer, readBodyBytes } from './fake-http.js';

export const BEDROCK_REGION = 'us-west-2';
export const BEDROCK_ACCESS_KEY_ID = 'AKIAFAKEBEDROCK00001';
export const BEDROCK_SECRET_KEY = 'fakeSecret/Key+0123456789abcdefghijklmnopq';
/** The channel key (`ACCESS_KEY_ID:SECRET_ACCESS_KEY`) this fake trusts. */
export const BEDROCK_CHANNEL_KEY = `${BEDROCK_ACCESS_KEY_ID}:${BEDROCK_SECRET_KEY}`;
/** The long-term Bedrock API key this fake trusts: `ABSK` + base64 of `BedrockAPIKey-<id>-at-<account>:<secret>`. */
export const BEDROCK_API_KEY = `ABSK${Buffer.from('BedrockAPIKey-fake0001-at-123456789012:fakeApiKeySecret0123456789').toString('base64')}`;
/** The short-term Bedrock API key this fake trusts: `bedrock-api-key-` + base64 of a presigned URL. */
export const BEDROCK_SHORT_TERM_API_KEY = `bedrock-api-key-${Buffer.from(
  `bedrock.amazonaws.com/?Action=CallWithBearerToken&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=${BEDROCK_ACCESS_KEY_ID}%2F20260101%2Fus-west-2%2Fbedrock%2Faws4_request&X-Amz-Expires=43200&Version=1`,
).toString('base64')}`;
const TRUSTED_API_KEYS = new Set([BEDROCK_API_KEY, BEDROCK_SHORT_TERM_API_KEY]);
const CHAT_MODELS =
  /^((us|eu|apac|global)\.)?(anthropic\.claude-[a-z0-9-]+-v\d+:\d+|meta\.llama[a-z0-9-]+-v\d+:\d+|amazon\.nova-[a-z]+-v\d+:\d+|mistral\.[a-z0-9-]+-v\d+:\d+)$/;
const CLAUDE = /^((us|eu|apac|global)\.)?anthropic\.(claude-[a-z0-9-]+?)-v\d+:\d+$/;

export interface BedrockCall {
  /** The path as received (the model id percent-encoded). */
  rawPath: string;
  action: string;
  modelId: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeBedrock {
  url: string;
  /** Requests that passed authentication. */
  calls: BedrockCall[];
  /** The `authorization` header of each request refused for its credentials, in order. */
  refusedAuthorizations: string[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const codec = new EventStreamCodec(
  (bytes) => decoder.decode(bytes),
  (text) => encoder.encode(text),
);

class BedrockError extends Error {
  constructor(
    readonly status: number,
    /** `x-amzn-ErrorType`; empty: none sent and the body is `{"Message"}` (API key refusals). */
    readonly type: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function verifyApiKey(authorization: string): void {
  const key = authorization.slice('Bearer '.length).trim();
  if (!/^(ABSK|bedrock-api-key-)/.test(key)) throw new BedrockError(403, '', 'Invalid API Key format: Must start with pre-defined prefix');
  if (!TRUSTED_API_KEYS.has(key)) throw new BedrockError(403, '', 'Authentication failed: Please make sure your API Key is valid.');
}

function verifyAuthorization(req: IncomingMessage, rawPath: string, body: Buffer, region: string): void {
  const authorization = req.headers.authorization ?? '';
  if (/^Bearer /i.test(authorization)) return verifyApiKey(authorization);
  verifySignature(req, rawPath, body, region);
}

/** RFC 3986 unreserved characters stay; everything else is %XX, as SigV4 wants. */
function awsUriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function verifySignature(req: IncomingMessage, rawPath: string, body: Buffer, fakeRegion: string): void {
  const authorization = req.headers.authorization ?? '';
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
    authorization,
  );
  if (!match) throw new BedrockError(403, 'IncompleteSignatureException', 'Authorization header requires a SigV4 Credential, SignedHeaders and Signature.');
  const [, keyId, day, region, service, signedHeaders, signature] = match;
  if (keyId !== BEDROCK_ACCESS_KEY_ID) throw new BedrockError(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.');
  const token = req.headers['x-amz-security-token'];
  if (token === 'expired-token') throw new BedrockError(403, 'ExpiredTokenException', 'The security token included in the request is expired');
  if (region !== fakeRegion || service !== 'bedrock')
    throw new BedrockError(403, 'InvalidSignatureException', `Credential should be scoped to a valid region and service bedrock, not '${region}/${service}'.`);
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const dated = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!dated || !amzDate.startsWith(day))
    throw new BedrockError(403, 'InvalidSignatureException', 'X-Amz-Date is missing or does not match the credential scope.');
  const signedAt = Date.UTC(+dated[1], +dated[2] - 1, +dated[3], +dated[4], +dated[5], +dated[6]);
  if (Math.abs(Date.now() - signedAt) > 5 * 60_000)
    throw new BedrockError(403, 'InvalidSignatureException', 'Signature expired: the request time is more than 5 minutes off.');
  const names = signedHeaders.split(';');
  if (!names.includes('host') || !names.includes('x-amz-date')) throw new BedrockError(403, 'InvalidSignatureException', 'host and x-amz-date must be signed.');
  const canonicalHeaders = names
    .map(
      (name) =>
        `${name}:${String(req.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonicalUri = rawPath.split('/').map(awsUriEncode).join('/');
  const canonicalRequest = ['POST', canonicalUri, '', canonicalHeaders, signedHeaders, createHash('sha256').update(body).digest('hex')].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${BEDROCK_SECRET_KEY}`, day), region), service), 'aws4_request');
  const expected = hmac(signingKey, stringToSign);
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) {
    throw new BedrockError(
      403,
      'InvalidSignatureException',
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.',
    );
  }
}

function sendError(res: ServerResponse, error: BedrockError): void {
  const text = JSON.stringify(error.type ? { message: error.message } : { Message: error.message });
  res.writeHead(error.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(error.type ? { 'x-amzn-errortype': `${error.type}:http://internal.amazon.com/coral/com.amazon.bedrock/` } : {}),
    'x-amzn-requestid': 'fake-request-id',
    ...error.headers,
  });
  res.end(text);
}

function eventFrame(type: string, payload: Json): Uint8Array {
  return codec.encode({
    headers: {
      ':event-type': { type: 'string', value: type },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'event' },
    },
    body: encoder.encode(JSON.stringify({ ...payload, p: 'abcdefghij' })),
  });
}

function exceptionFrame(type: string, message: string): Uint8Array {
  return codec.encode({
    headers: {
      ':exception-type': { type: 'string', value: type },
      ':content-type': { type: 'string', value: 'application/json' },
      ':message-type': { type: 'string', value: 'exception' },
    },
    body: encoder.encode(JSON.stringify({ message })),
  });
}

function withBadCrc(frame: Uint8Array): Uint8Array {
  const copy = Uint8Array.from(frame);
  copy[copy.length - 1] ^= 0xff;
  return copy;
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function textOf(blocks: unknown): string {
  return Array.isArray(blocks) ? blocks.map((block) => (typeof (block as Json)?.text === 'string' ? (block as Json).text : '')).join(' ') : '';
}

const BLOCK_MEMBERS = new Set(['text', 'image', 'document', 'toolUse', 'toolResult', 'reasoningContent', 'cachePoint']);
const CONVERSE_MEMBERS = new Set([
  'messages',
  'system',
  'inferenceConfig',
  'toolConfig',
  'additionalModelRequestFields',
  'guardrailConfig',
  'performanceConfig',
  'promptVariables',
  'additionalModelResponseFieldPaths',
  'requestMetadata',
]);

function checkConverse(body: Json): Array<{ role: string; content: Json[] }> {
  for (const key of Object.keys(body))
    if (!CONVERSE_MEMBERS.has(key)) throw new BedrockError(400, 'ValidationException', `Malformed input request: extraneous key [${key}] is not permitted`);
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) throw new BedrockError(400, 'ValidationException', 'A conversation must start with a user message.');
  messages.forEach((message: { role?: unknown; content?: unknown }, index) => {
    const role = index % 2 === 0 ? 'user' : 'assistant';
    if (message.role !== role) throw new BedrockError(400, 'ValidationException', 'A conversation must alternate between user and assistant roles.');
    if (!Array.isArray(message.content) || message.content.length === 0)
      throw new BedrockError(400, 'ValidationException', `messages.${index}.content must not be empty`);
    for (const block of message.content as Json[]) {
      const keys = Object.keys(block ?? {});
      if (keys.length !== 1 || !BLOCK_MEMBERS.has(keys[0]))
        throw new BedrockError(400, 'ValidationException', `messages.${index}: a content block must have exactly one member`);
    }
  });
  checkToolConfig(body, messages as Array<{ content: Json[] }>);
  return messages as Array<{ role: string; content: Json[] }>;
}

const TOOL_CHOICES = new Set(['auto', 'any', 'tool']);

/** Converse's documented tool rules (see the header). */
function checkToolConfig(body: Json, messages: Array<{ content: Json[] }>): void {
  const toolConfig = body.toolConfig as Json | undefined;
  const holdsToolBlocks = messages.some((message) => message.content.some((block) => 'toolUse' in block || 'toolResult' in block));
  if (holdsToolBlocks && toolConfig === undefined)
    throw new BedrockError(400, 'ValidationException', 'The toolConfig field must be defined when using toolUse and toolResult content blocks.');
  if (toolConfig === undefined) return;
  if (!Array.isArray(toolConfig.tools) || toolConfig.tools.length === 0)
    throw new BedrockError(
      400,
      'ValidationException',
      "1 validation error detected: Value at 'toolConfig.tools' failed to satisfy constraint: Member must have length greater than or equal to 1",
    );
  const choice = toolConfig.toolChoice as Json | undefined;
  if (choice !== undefined && (Object.keys(choice).length !== 1 || !TOOL_CHOICES.has(Object.keys(choice)[0])))
    throw new BedrockError(400, 'ValidationException', 'Malformed input request: toolChoice must be exactly one of auto, any or tool');
}

interface ConverseResult {
  content: Json[];
  stopReason: string;
  usage: { inputTokens: number; outputTokens: number; totalTokens: number };
}

function converseAnswer(modelId: string, body: Json): ConverseResult {
  const messages = checkConverse(body);
  const last = messages.at(-1)!;
  const tools = ((body.toolConfig as Json | undefined)?.tools as Array<{ toolSpec: { name: string; inputSchema: { json: Json } } }> | undefined) ?? [];
  const answeredTool = last.content.some((block) => block.toolResult !== undefined);
  const inputTokens = words(textOf(body.system)) + messages.reduce((sum, message) => sum + words(textOf(message.content)), 0) + 3;
  if (tools.length > 0 && !answeredTool) {
    const tool = tools[0].toolSpec;
    const properties = (tool.inputSchema.json.properties ?? {}) as Record<string, { type?: string }>;
    const input = Object.fromEntries(
      Object.entries(properties).map(([name, schema]) => [name, schema.type === 'number' || schema.type === 'integer' ? 1 : 'Paris']),
    );
    const content = [{ text: 'Let me check.' }, { toolUse: { toolUseId: 'tooluse_fake0001', name: tool.name, input } }];
    return { content, stopReason: 'tool_use', usage: { inputTokens, outputTokens: 12, totalTokens: inputTokens + 12 } };
  }
  const said = answeredTool ? 'the tool answered' : textOf(last.content).slice(0, 80);
  const text = `Hello from ${modelId}. You said: ${said}`;
  const outputTokens = words(text);
  return { content: [{ text }], stopReason: 'end_turn', usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens } };
}

function converseFrames(result: ConverseResult): Uint8Array[] {
  const frames = [eventFrame('messageStart', { role: 'assistant' })];
  result.content.forEach((block, index) => {
    if (typeof block.text === 'string') {
      const text = block.text;
      const half = Math.ceil(text.length / 2);
      for (const piece of [text.slice(0, half), text.slice(half)])
        frames.push(eventFrame('contentBlockDelta', { contentBlockIndex: index, delta: { text: piece } }));
    } else {
      const toolUse = block.toolUse as { toolUseId: string; name: string; input: Json };
      frames.push(eventFrame('contentBlockStart', { contentBlockIndex: index, start: { toolUse: { toolUseId: toolUse.toolUseId, name: toolUse.name } } }));
      const json = JSON.stringify(toolUse.input);
      const cut = Math.floor(json.length / 2);
      for (const piece of [json.slice(0, cut), json.slice(cut)])
        frames.push(eventFrame('contentBlockDelta', { contentBlockIndex: index, delta: { toolUse: { input: piece } } }));
    }
    frames.push(eventFrame('contentBlockStop', { contentBlockIndex: index }));
  });
  frames.push(eventFrame('messageStop', { stopReason: result.stopReason }));
  frames.push(eventFrame('metadata', { usage: result.usage, metrics: { latencyMs: 42 } }));
  return frames;
}

/** Each `event:`/`data:` block of an SSE text → the data's JSON text. */
function sseDataOf(text: string): string[] {
  return text
    .split(/\n\n/)
    .map((block) =>
      block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n'),
    )
    .filter((data) => data.length > 0);
}

/** `region`: the region this fake's SigV4 credential scope must name (default BEDROCK_REGION). */
export async function startFakeBedrock(relays: { anthropic: string }, settings: { region?: string } = {}): Promise<FakeBedrock> {
  const fakeRegion = settings.region ?? BEDROCK_REGION;
  const calls: BedrockCall[] = [];
  const refusedAuthorizations: string[] = [];

  function titanEmbed(call: BedrockCall, res: ServerResponse): void {
    const { inputText, dimensions = 1024, ...rest } = call.body;
    for (const key of Object.keys(rest))
      if (key !== 'normalize') throw new BedrockError(400, 'ValidationException', `Malformed input request: extraneous key [${key}] is not permitted`);
    if (typeof inputText !== 'string' || inputText === '') throw new BedrockError(400, 'ValidationException', 'Malformed input request: inputText is required');
    if (![256, 512, 1024].includes(dimensions as number))
      throw new BedrockError(400, 'ValidationException', 'Malformed input request: dimensions must be 256, 512 or 1024');
    const text = JSON.stringify({ embedding: fakeEmbeddingValues(inputText, dimensions as number), inputTextTokenCount: words(inputText) });
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      'x-amzn-requestid': 'fake-request-id',
      'x-amzn-bedrock-input-token-count': String(words(inputText)),
    });
    res.end(text);
  }

  function cohereEmbed(call: BedrockCall, res: ServerResponse): void {
    const v4 = call.modelId.startsWith('cohere.embed-v4');
    const allowed = new Set(['texts', 'input_type', 'truncate', 'embedding_types', 'images', ...(v4 ? ['output_dimension', 'max_tokens', 'inputs'] : [])]);
    for (const key of Object.keys(call.body))
      if (!allowed.has(key)) throw new BedrockError(400, 'ValidationException', `Malformed input request: extraneous key [${key}] is not permitted`);
    const { texts, input_type: inputType, embedding_types: types, output_dimension: dimension } = call.body;
    if (!['search_document', 'search_query', 'classification', 'clustering'].includes(inputType as string))
      throw new BedrockError(
        400,
        'ValidationException',
        'Malformed input request: input_type must be one of search_document, search_query, classification, clustering',
      );
    if (!Array.isArray(texts) || texts.length > 96 || !texts.every((text) => typeof text === 'string'))
      throw new BedrockError(400, 'ValidationException', 'Malformed input request: texts must be an array of at most 96 strings');
    if (!v4 && texts.some((text: string) => text.length > 2048))
      throw new BedrockError(400, 'ValidationException', 'Malformed input request: a text may not exceed 2048 characters');
    const EMBEDDING_TYPES = ['float', 'int8', 'uint8', 'binary', 'ubinary'];
    if (types !== undefined && (!Array.isArray(types) || types.length === 0 || !types.every((type) => EMBEDDING_TYPES.includes(type as string))))
      throw new BedrockError(400, 'ValidationException', 'Malformed input request: embedding_types must list float, int8, uint8, binary or ubinary');
    if (dimension !== undefined && ![256, 512, 1024, 1536].includes(dimension as number))
      throw new BedrockError(400, 'ValidationException', 'Malformed input request: output_dimension must be 256, 512, 1024 or 1536');
    const size = v4 ? ((dimension as number | undefined) ?? 1536) : 1024;
    const wanted = (types as string[] | undefined) ?? ['float'];
    const vectorsOf = (type: string): number[][] =>
      (texts as string[]).map((text) => fakeEmbeddingValues(`${inputType}:${text}`, size).map((value) => (type === 'float' ? value : Math.round(value * 127))));
    const byType = v4 ? wanted.length > 1 : types !== undefined;
    const answer = {
      id: 'fake-cohere-embed-0001',
      texts,
      embeddings: byType ? Object.fromEntries(wanted.map((type) => [type, vectorsOf(type)])) : vectorsOf(wanted[0]),
      response_type: byType ? 'embeddings_by_type' : 'embeddings_floats',
    };
    const text = JSON.stringify(answer);
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      'x-amzn-requestid': 'fake-request-id',
      ...(call.modelId.endsWith('-noheader') ? {} : { 'x-amzn-bedrock-input-token-count': String(words((texts as string[]).join(' '))) }),
    });
    res.end(text);
  }

  async function invoke(call: BedrockCall, res: ServerResponse): Promise<void> {
    if (call.modelId === 'amazon.titan-embed-text-v2:0' && call.action === 'invoke') return titanEmbed(call, res);
    if (/^cohere\.embed-(english-v3|multilingual-v3|english-v3-noheader|v4:0)$/.test(call.modelId) && call.action === 'invoke') return cohereEmbed(call, res);
    const claude = CLAUDE.exec(call.modelId);
    if (!claude) throw new BedrockError(400, 'ValidationException', 'The provided model identifier is invalid.');
    const body = call.body;
    if (body.anthropic_version !== 'bedrock-2023-05-31')
      throw new BedrockError(400, 'ValidationException', 'Malformed input request: anthropic_version: bedrock-2023-05-31 is required');
    for (const key of ['model', 'stream'])
      if (key in body) throw new BedrockError(400, 'ValidationException', `Malformed input request: extraneous key [${key}] is not permitted`);
    const { anthropic_version: _version, ...messages } = body;
    const stream = call.action === 'invoke-with-response-stream';
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-api-key': FAKE_ANTHROPIC_KEY, 'anthropic-version': '2023-06-01' };
    const beta = call.headers['anthropic-beta'];
    if (typeof beta === 'string') headers['anthropic-beta'] = beta;
    const answer = await fetch(`${relays.anthropic}/v1/messages`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...messages, model: claude[3], ...(stream ? { stream: true } : {}) }),
    });
    const text = await answer.text();
    if (!stream || answer.status !== 200) {
      res.writeHead(answer.status, { 'content-type': 'application/json', 'x-amzn-requestid': 'fake-request-id' });
      res.end(text);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'fake-request-id' });
    for (const data of sseDataOf(text)) {
      res.write(
        codec.encode({
          headers: {
            ':event-type': { type: 'string', value: 'chunk' },
            ':content-type': { type: 'string', value: 'application/json' },
            ':message-type': { type: 'string', value: 'event' },
          },
          body: encoder.encode(JSON.stringify({ bytes: Buffer.from(data).toString('base64'), p: 'abcd' })),
        }),
      );
    }
    res.end();
  }

  function converse(call: BedrockCall, res: ServerResponse): void {
    if (!CHAT_MODELS.test(call.modelId) && !call.modelId.includes('bad-crc') && !call.modelId.includes('stream-throttled')) {
      throw new BedrockError(400, 'ValidationException', 'The provided model identifier is invalid.');
    }
    const result = converseAnswer(call.modelId, call.body);
    if (call.action === 'converse') {
      const text = JSON.stringify({
        output: { message: { role: 'assistant', content: result.content } },
        stopReason: result.stopReason,
        usage: result.usage,
        metrics: { latencyMs: 42 },
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'x-amzn-requestid': 'fake-request-id' });
      res.end(text);
      return;
    }
    res.writeHead(200, { 'content-type': 'application/vnd.amazon.eventstream', 'x-amzn-requestid': 'fake-request-id' });
    const frames = converseFrames(result);
    if (call.modelId.includes('bad-crc')) {
      res.write(frames[0]);
      res.end(withBadCrc(frames[1]));
      return;
    }
    if (call.modelId.includes('stream-throttled')) {
      res.write(frames[0]);
      res.end(exceptionFrame('throttlingException', 'Too many tokens, please wait before trying again.'));
      return;
    }
    for (const frame of frames) res.write(frame);
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const rawPath = (req.url ?? '/').split('?')[0];
    const bytes = await readBodyBytes(req);
    const match = /^\/model\/([^/]+)\/(converse|converse-stream|invoke|invoke-with-response-stream)$/.exec(rawPath);
    if (req.method !== 'POST' || !match) throw new BedrockError(404, 'UnknownOperationException', 'Unknown operation');
    try {
      verifyAuthorization(req, rawPath, bytes, fakeRegion);
    } catch (error) {
      refusedAuthorizations.push(String(req.headers.authorization ?? ''));
      throw error;
    }
    let body: Json;
    try {
      body = JSON.parse(bytes.toString('utf8')) as Json;
    } catch {
      throw new BedrockError(400, 'ValidationException', 'Malformed input request, please reformat your input and try again.');
    }
    const call: BedrockCall = { rawPath, action: match[2], modelId: decodeURIComponent(match[1]), headers: req.headers, body };
    calls.push(call);
    if (call.modelId.includes('throttled') && !call.modelId.includes('stream-throttled')) {
      throw new BedrockError(429, 'ThrottlingException', 'Too many requests, please wait before trying again.', { 'retry-after': '7' });
    }
    if (call.action.startsWith('invoke')) return invoke(call, res);
    return converse(call, res);
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.end();
      sendError(res, error instanceof BedrockError ? error : new BedrockError(500, 'InternalServerException', String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, calls, refusedAuthorizations, close: () => closeServer(server) };
}
