/**
 * The in-place relay of pass-through streams must relay and read exactly what the decoding
 * reader does: the same bytes, usage and produced text, for every shape and every chunking.
 */
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { bodyText } from '../../../test/helpers/body-text.js';
import { anthropicInPlace, anthropicProducedText, anthropicStreamReader } from '../anthropic/anthropic-passthrough.js';
import { openAIInPlace, openAIProducedText, openAIStreamReader } from '../openai/openai-passthrough.js';
import { renameModel, renameModelBytes } from './public-model.js';
import { lastObjectAt, lastObjectInBytes } from './json-scanner.js';
import { tapJson } from './json-tap.js';
import { type SseEventReader, type SseTapOptions, tapSse } from './sse-tap.js';

function chunked(bytes: Buffer, size: number): Readable {
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

const SIZES = [1, 2, 3, 5, 7, 13, 31, 64, 100, 257, 100_000];

async function same(body: string, reader: () => SseEventReader, options: SseTapOptions): Promise<void> {
  const bytes = Buffer.from(body, 'utf8');
  const { inPlace, ...decoding } = options;
  const expected = tapSse(chunked(bytes, 100_000), reader(), decoding);
  const expectedBody = await bodyText(expected.body);
  const expectedResult = await expected.result;
  for (const size of SIZES) {
    // The tap may edit the chunks it is handed: each run gets its own copy.
    const tapped = tapSse(chunked(Buffer.from(bytes), size), reader(), { ...options, inPlace });
    expect(await bodyText(tapped.body), `chunks of ${size}`).toBe(expectedBody);
    expect(await tapped.result, `chunks of ${size}`).toEqual(expectedResult);
  }
}

const chunk = (delta: string, extra = '', model = 'up-model') =>
  `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"${model}","system_fingerprint":"fp","choices":[{"index":0,"delta":${delta},"finish_reason":null}]${extra}}`;
const usage = '{"prompt_tokens":7,"completion_tokens":3,"total_tokens":10}';
const frame = (data: string) => `data: ${data}\n\n`;

const OPENAI_STREAMS: Record<string, string> = {
  plain: [chunk('{"role":"assistant","content":""}'), chunk('{"content":"Hé ✓ \\"q\\""}'), chunk('{}'), '[DONE]'].map(frame).join(''),
  usageNull: [
    chunk('{"content":"a"}', ',"usage":null'),
    chunk('{"content":"b \\"usage\\":{"}', ',"usage":null'),
    chunk('{}', ',"usage":null'),
    `{"id":"c1","object":"chat.completion.chunk","created":1,"model":"up-model","choices":[],"usage":${usage}}`,
    '[DONE]',
  ]
    .map(frame)
    .join(''),
  lastChunkUsage: [chunk('{"content":"a"}'), chunk('{}', `,"usage":${usage}`), '[DONE]'].map(frame).join(''),
  spacedUsage: [chunk('{"content":"a"}', ',"usage" : null'), chunk('{}', `,"usage": ${usage}`), '[DONE]'].map(frame).join(''),
  samePublicModel: [chunk('{"content":"a"}', ',"usage":null', 'public/model'), chunk('{"content":"b"}', '', 'public/model'), '[DONE]'].map(frame).join(''),
  oddShapes: [
    ': keep-alive\n\n',
    'data:{"model":"up-model","choices":[{"delta":{"content":"x"}}],"usage":null}\n\n',
    'data: {"choices":[{"delta":{"content":"y"}}],"model":"up-model","usage":null}\n\n',
    'data: {"id":"a\\"b","model":"up-model","usage":null}\n\n',
    'data: {"id":1,\ndata: "model":"up-model","usage":null}\n\n',
    'event: other\ndata: {"model":"up-model","usage":null}\n\n',
    'id: 3\ndata: {"model":"up-model","usage":null}\n\n',
    '\n\ndata: {"model":"up-model","usage":null}\n\n',
    'data: {"model":"esc\\"aped","usage":null}\n\n',
    'data: {"model":5,"usage":null}\n\n',
    'data: {"model":"up-model"}\n\n',
    ': c\n\n',
    'event: ping\n\n',
    'data:\n\n',
    'data: {"model":"up-model","usage":null}\n\n',
    ':\n\n',
    'data: [DONE]\n\n: tail',
  ].join(''),
  crlfLater: `${frame(chunk('{"content":"a"}', ',"usage":null'))}data: ${chunk('{"content":"b"}', ',"usage":null')}\r\n\r\n${frame('[DONE]')}`,
  unterminated: `${frame(chunk('{"content":"a"}', ',"usage":null'))}data: ${chunk('{"content":"b"}', ',"usage":null')}`,
};

describe('OpenAI streams relayed in place', () => {
  for (const [name, body] of Object.entries(OPENAI_STREAMS)) {
    for (const model of ['public/model', undefined]) {
      for (const injected of [true, false]) {
        it(`${name}, model ${model ?? 'kept'}, ${injected ? 'injected' : 'client-asked'} usage`, async () => {
          await same(body, () => openAIStreamReader(model, injected), {
            rewrites: model !== undefined || injected,
            producedTextOf: openAIProducedText,
            inPlace: openAIInPlace(model, injected),
          });
        });
      }
    }
  }

  it('hands an event longer than the carry bound to the decoder and relays the same bytes', async () => {
    const long = chunk(`{"content":"${'x'.repeat(70_000)}"}`, ',"usage":null');
    const body = [chunk('{"content":"a"}', ',"usage":null'), long, chunk('{}', ',"usage":null'), '[DONE]'].map(frame).join('');
    const bytes = Buffer.from(body, 'utf8');
    const options = { rewrites: true, producedTextOf: openAIProducedText };
    const expected = await bodyText(tapSse(chunked(bytes, 100_000), openAIStreamReader('public/model', true), options).body);
    for (const size of [1000, 4096]) {
      const tapped = tapSse(chunked(Buffer.from(bytes), size), openAIStreamReader('public/model', true), {
        ...options,
        inPlace: openAIInPlace('public/model', true),
      });
      expect(await bodyText(tapped.body), `chunks of ${size}`).toBe(expected);
    }
    expect(expected).toContain('"model":"public/model"');
    expect(expected).not.toContain('"usage":null');
  });

  it('bills the text of a cut stream as the decoding path does', async () => {
    const source = new Readable({ read() {} });
    const tapped = tapSse(source, openAIStreamReader('m', true), { rewrites: true, producedTextOf: openAIProducedText, inPlace: openAIInPlace('m', true) });
    tapped.body.resume();
    const second = frame(chunk('{"content":" world"}', ',"usage":null'));
    source.push(frame(chunk('{"content":"Hello"}', ',"usage":null')) + second.slice(0, 40));
    source.push(second.slice(40));
    source.push(frame(chunk('{"content":"!"}', ',"usage":null')).slice(0, 30));
    await new Promise((resolve) => setImmediate(resolve));
    tapped.body.destroy();
    expect(await tapped.result).toEqual({ completed: false, producedText: 'Hello world' });
  });
});

const anthropicEvent = (name: string, data: string) => `event: ${name}\ndata: ${data}\n\n`;
const ANTHROPIC_STREAMS: Record<string, string> = {
  plain: [
    anthropicEvent('message_start', '{"type":"message_start","message":{"id":"m","model":"up-model","usage":{"input_tokens":9,"output_tokens":1}}}'),
    anthropicEvent('content_block_start', '{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}'),
    anthropicEvent('ping', '{"type":"ping"}'),
    anthropicEvent('content_block_delta', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hé"}}'),
    ': comment\n',
    anthropicEvent('content_block_delta', '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" ✓"}}'),
    'event:content_block_delta\ndata:{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"!"}}\n\n',
    anthropicEvent('content_block_stop', '{"type":"content_block_stop","index":0}'),
    anthropicEvent('message_delta', '{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":4}}'),
    anthropicEvent('message_stop', '{"type":"message_stop"}'),
  ].join(''),
};

describe('Anthropic streams relayed in place', () => {
  for (const [name, body] of Object.entries(ANTHROPIC_STREAMS)) {
    for (const model of ['public/model', undefined]) {
      it(`${name}, model ${model ?? 'kept'}`, async () => {
        const options = {
          rewrites: model !== undefined,
          producedTextOf: anthropicProducedText,
          lastRewrite: (e: { event?: string }) => e.event === 'message_start',
        };
        await same(body, () => anthropicStreamReader(model), { ...options, inPlace: anthropicInPlace });
        await same(body.replaceAll('\n', '\r\n'), () => anthropicStreamReader(model), { ...options, inPlace: anthropicInPlace });
      });
    }
  }
});

describe('events read and kept as they came', () => {
  async function relayedBytes(source: Buffer, size: number, inPlace: boolean): Promise<Buffer> {
    const tapped = tapSse(chunked(Buffer.from(source), size), anthropicStreamReader('public/model'), {
      rewrites: true,
      producedTextOf: anthropicProducedText,
      lastRewrite: (e) => e.event === 'message_start',
      inPlace: inPlace ? anthropicInPlace : undefined,
    });
    const parts: Buffer[] = [];
    for await (const part of tapped.body) parts.push(Buffer.from(part));
    return Buffer.concat(parts);
  }

  it('relay the same bytes as the decoding path at every chunking, also when an event is not valid UTF-8', async () => {
    const source = Buffer.concat([
      Buffer.from(ANTHROPIC_STREAMS.plain.slice(0, ANTHROPIC_STREAMS.plain.indexOf('event: ping'))),
      Buffer.from('event: ping\ndata: {"type":"ping","x":"'),
      Buffer.from([0xff, 0xe2, 0x9c]),
      Buffer.from('"}\n\n'),
      Buffer.from(ANTHROPIC_STREAMS.plain.slice(ANTHROPIC_STREAMS.plain.indexOf('event: content_block_delta'))),
    ]);
    // Compared chunking by chunking: once the renamed event is out, both paths relay later chunks as they came.
    for (const size of SIZES) {
      const expected = await relayedBytes(source, size, false);
      expect(expected.includes(Buffer.from('"model":"public/model"')), `chunks of ${size}`).toBe(true);
      expect((await relayedBytes(source, size, true)).equals(expected), `chunks of ${size}`).toBe(true);
    }
  });
});

describe('JSON answers edited on their bytes', () => {
  const documents = [
    '{"id":"c","object":"chat.completion","created":1,"model":"up","choices":[{"message":{"content":"Hé"}}],"usage":{"prompt_tokens":1}}',
    '{\n  "id": "c",\n  "model" : "up",\n  "usage": {"prompt_tokens": 2, "note": "a}b"}\n}',
    '{"id":"c","model":"public/model","usage":{}}',
    '{"x":"model","model":"up"}',
    '{"choices":[{"model":"inner"}],"model":"up"}',
    '{"id":"a\\"b","model":"up"}',
    '{"id":"c","model":"esc\\"aped"}',
    '{"id":"c","model":5}',
    '{"id":"c"}',
    '  {"model":"up","usage":{"prompt_tokens":3}} ',
    '{"content":"the \\"usage\\": {fake}","usage":{"prompt_tokens":4}}',
  ];
  for (const document of documents) {
    it(`renames and reads usage as the text path does: ${document.slice(0, 40)}`, () => {
      const bytes = Buffer.from(document, 'utf8');
      const edited = renameModelBytes(bytes, 'model', 'public/model');
      if (edited) expect(edited.toString('utf8')).toBe(renameModel(document, 'model', 1, 'public/model'));
      expect(lastObjectInBytes(bytes, 'usage')).toEqual(lastObjectAt(document, 'usage'));
    });
  }

  it('relays JSON that is not UTF-8 as it always did, decoded and encoded again', async () => {
    const bytes = Buffer.concat([Buffer.from('{"model":"up","x":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const options = {
      extract: () => undefined,
      rewrite: (text: string) => renameModel(text, 'model', 1, 'p'),
      rewriteBytes: (b: Buffer) => renameModelBytes(b, 'model', 'p'),
    };
    const tapped = await tapJson(Readable.from([bytes]), options);
    expect(tapped.body).toEqual(Buffer.from(renameModel(bytes.toString('utf8'), 'model', 1, 'p'), 'utf8'));
  });
});
