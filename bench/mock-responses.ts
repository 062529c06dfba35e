/**
 * Every answer the mock upstream gives, built once as bytes so serving a request costs no
 * JSON work. The shapes follow the published wire formats of OpenAI Chat Completions and
 * Embeddings, Anthropic Messages and Gemini generateContent / embedContent.
 */

export const MOCK_MODELS = {
  openai: 'gpt-4o-mini',
  anthropic: 'claude-haiku-4-5-20251001',
  gemini: 'gemini-2.0-flash',
  embedding: 'text-embedding-3-small',
} as const;

/** Prompt tokens every mock answer reports. */
export const MOCK_PROMPT_TOKENS = 12;

const WORDS = ['lorem', 'ipsum', 'dolor', 'sit', 'amet', 'consectetur', 'adipiscing', 'elit'];

/** The `size` text tokens of every answer: one word each, separated by spaces. */
export function mockTokens(size: number): string[] {
  const tokens: string[] = [];
  for (let i = 0; i < size; i++) tokens.push((i === 0 ? '' : ' ') + WORDS[i % WORDS.length]);
  return tokens;
}

/** One complete SSE stream: the bytes before the first token, one frame per token, the tail. */
export interface StreamBytes {
  head: Buffer;
  tokens: Buffer[];
  tail: Buffer;
}

export interface MockResponses {
  text: string;
  openaiChat: Buffer;
  openaiStream: StreamBytes;
  /** The same stream with the usage chunk that `stream_options.include_usage` asks for. */
  openaiStreamWithUsage: StreamBytes;
  openaiEmbedding: Buffer;
  openaiEmbeddingBase64: Buffer;
  anthropicMessage: Buffer;
  anthropicStream: StreamBytes;
  geminiGenerate: Buffer;
  geminiStream: StreamBytes;
  geminiEmbedding: Buffer;
  /** One Gemini embedding object (`{"values":[…]}`), to join into a batch answer. */
  geminiEmbeddingValues: Buffer;
}

export interface MockResponseOptions {
  size: number;
  embeddingDims: number;
}

/** Joins a stream into the exact bytes a client receives. */
/**
 * The stream as a target relays it: gengate names the public model id the client asked for
 * (its relay policy), so its bytes equal the upstream's with that one value changed.
 */
export function asRelayedBy(bytes: Buffer, upstreamModel: string, publicModel: string): Buffer {
  if (upstreamModel === publicModel) return bytes;
  return Buffer.from(bytes.toString('utf8').split(`"model":"${upstreamModel}"`).join(`"model":"${publicModel}"`), 'utf8');
}

export function streamToBuffer(stream: StreamBytes): Buffer {
  return Buffer.concat([stream.head, ...stream.tokens, stream.tail]);
}

export function buildMockResponses(options: MockResponseOptions): MockResponses {
  const tokens = mockTokens(options.size);
  const text = tokens.join('');
  const vector = embeddingVector(options.embeddingDims);
  return {
    text,
    openaiChat: json(openaiChat(text, tokens.length)),
    openaiStream: openaiStream(tokens, false),
    openaiStreamWithUsage: openaiStream(tokens, true),
    openaiEmbedding: json(openaiEmbedding(vector)),
    openaiEmbeddingBase64: json(openaiEmbedding(float32Base64(vector))),
    anthropicMessage: json(anthropicMessage(text, tokens.length)),
    anthropicStream: anthropicStream(tokens),
    geminiGenerate: json(geminiResponse(text, tokens.length, true)),
    geminiStream: geminiStream(tokens),
    geminiEmbedding: json({ embedding: { values: vector } }),
    geminiEmbeddingValues: json({ values: vector }),
  };
}

const CREATED = 1_760_000_000;
const OPENAI_ID = 'chatcmpl-benchmock0001';

function openaiUsage(completion: number) {
  return {
    prompt_tokens: MOCK_PROMPT_TOKENS,
    completion_tokens: completion,
    total_tokens: MOCK_PROMPT_TOKENS + completion,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function openaiChat(text: string, completion: number) {
  return {
    id: OPENAI_ID,
    object: 'chat.completion',
    created: CREATED,
    model: MOCK_MODELS.openai,
    choices: [{ index: 0, message: { role: 'assistant', content: text, refusal: null, annotations: [] }, logprobs: null, finish_reason: 'stop' }],
    usage: openaiUsage(completion),
    service_tier: 'default',
    system_fingerprint: 'fp_benchmock',
  };
}

function openaiChunk(delta: Record<string, unknown>, finishReason: string | null, withUsage: boolean) {
  const chunk: Record<string, unknown> = {
    id: OPENAI_ID,
    object: 'chat.completion.chunk',
    created: CREATED,
    model: MOCK_MODELS.openai,
    service_tier: 'default',
    system_fingerprint: 'fp_benchmock',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  };
  if (withUsage) chunk.usage = null;
  return chunk;
}

function openaiStream(tokens: string[], withUsage: boolean): StreamBytes {
  const head = dataFrame(openaiChunk({ role: 'assistant', content: '', refusal: null }, null, withUsage));
  const frames = tokens.map((token) => dataFrame(openaiChunk({ content: token }, null, withUsage)));
  const tail = [dataFrame(openaiChunk({}, 'stop', withUsage))];
  if (withUsage) {
    tail.push(
      dataFrame({
        id: OPENAI_ID,
        object: 'chat.completion.chunk',
        created: CREATED,
        model: MOCK_MODELS.openai,
        service_tier: 'default',
        system_fingerprint: 'fp_benchmock',
        choices: [],
        usage: openaiUsage(tokens.length),
      }),
    );
  }
  tail.push(Buffer.from('data: [DONE]\n\n'));
  return { head, tokens: frames, tail: Buffer.concat(tail) };
}

function openaiEmbedding(embedding: number[] | string) {
  return {
    object: 'list',
    data: [{ object: 'embedding', index: 0, embedding }],
    model: MOCK_MODELS.embedding,
    usage: { prompt_tokens: MOCK_PROMPT_TOKENS, total_tokens: MOCK_PROMPT_TOKENS },
  };
}

const ANTHROPIC_ID = 'msg_01BenchMock000000000001';

function anthropicUsage(output: number) {
  return {
    input_tokens: MOCK_PROMPT_TOKENS,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: output,
    service_tier: 'standard',
  };
}

function anthropicMessage(text: string, output: number) {
  return {
    id: ANTHROPIC_ID,
    type: 'message',
    role: 'assistant',
    model: MOCK_MODELS.anthropic,
    content: [{ type: 'text', text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: anthropicUsage(output),
  };
}

function anthropicStream(tokens: string[]): StreamBytes {
  const head = Buffer.concat([
    eventFrame('message_start', {
      type: 'message_start',
      message: { ...anthropicMessage('', 1), content: [], stop_reason: null },
    }),
    eventFrame('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    eventFrame('ping', { type: 'ping' }),
  ]);
  const frames = tokens.map((token) =>
    eventFrame('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: token } }),
  );
  const tail = Buffer.concat([
    eventFrame('content_block_stop', { type: 'content_block_stop', index: 0 }),
    eventFrame('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: tokens.length },
    }),
    eventFrame('message_stop', { type: 'message_stop' }),
  ]);
  return { head, tokens: frames, tail };
}

const GEMINI_RESPONSE_ID = 'benchmock-gemini-0001';

function geminiResponse(text: string, candidates: number, final: boolean) {
  const candidate: Record<string, unknown> = { content: { parts: [{ text }], role: 'model' }, index: 0 };
  if (final) candidate.finishReason = 'STOP';
  return {
    candidates: [candidate],
    usageMetadata: {
      promptTokenCount: MOCK_PROMPT_TOKENS,
      candidatesTokenCount: candidates,
      totalTokenCount: MOCK_PROMPT_TOKENS + candidates,
    },
    modelVersion: MOCK_MODELS.gemini,
    responseId: GEMINI_RESPONSE_ID,
  };
}

// Gemini ends each SSE event with CRLF CRLF and never sends `event:` lines or `[DONE]`.
function geminiStream(tokens: string[]): StreamBytes {
  const frames = tokens.map((token, i) => {
    const last = i === tokens.length - 1;
    return Buffer.from(`data: ${JSON.stringify(geminiResponse(token, i + 1, last))}\r\n\r\n`);
  });
  return { head: Buffer.alloc(0), tokens: frames, tail: Buffer.alloc(0) };
}

/** A deterministic unit-length vector (values rounded so the JSON stays realistic in size). */
function embeddingVector(dims: number): number[] {
  const raw: number[] = [];
  let norm = 0;
  for (let i = 0; i < dims; i++) {
    const value = Math.sin(i * 12.9898 + 78.233);
    raw.push(value);
    norm += value * value;
  }
  const scale = 1 / Math.sqrt(norm || 1);
  return raw.map((value) => Math.round(value * scale * 1e8) / 1e8);
}

/** What the OpenAI SDK asks for by default: little-endian float32 values, base64-encoded. */
function float32Base64(vector: number[]): string {
  const buffer = Buffer.alloc(vector.length * 4);
  vector.forEach((value, i) => buffer.writeFloatLE(value, i * 4));
  return buffer.toString('base64');
}

function json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value));
}

function dataFrame(value: unknown): Buffer {
  return Buffer.from(`data: ${JSON.stringify(value)}\n\n`);
}

function eventFrame(name: string, value: unknown): Buffer {
  return Buffer.from(`event: ${name}\ndata: ${JSON.stringify(value)}\n\n`);
}
