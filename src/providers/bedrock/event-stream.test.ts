import { describe, expect, it } from 'vitest';
import { eventStreamCodec, framePayloadJson, readEventStream } from './event-stream.js';
import { invokeStreamToSse } from './invoke-stream-to-sse.js';

function frame(headers: Record<string, string>, payload: object): Uint8Array {
  const encoded = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { type: 'string' as const, value }]));
  return eventStreamCodec.encode({ headers: encoded, body: new TextEncoder().encode(JSON.stringify(payload)) });
}

async function* chunks(...parts: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield part;
}

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

const first = frame({ ':message-type': 'event', ':event-type': 'messageStart' }, { role: 'assistant' });
const second = frame({ ':message-type': 'event', ':event-type': 'contentBlockDelta' }, { contentBlockIndex: 0, delta: { text: 'Hi' } });

describe('readEventStream', () => {
  it('reads frames split at any byte boundary', async () => {
    const all = Buffer.concat([first, second]);
    const pieces = [all.subarray(0, 3), all.subarray(3, first.length + 5), all.subarray(first.length + 5)];
    const frames = await collect(readEventStream(chunks(...pieces)));
    expect(frames.map((f) => [f.headers[':event-type'], framePayloadJson(f)])).toEqual([
      ['messageStart', { role: 'assistant' }],
      ['contentBlockDelta', { contentBlockIndex: 0, delta: { text: 'Hi' } }],
    ]);
  });

  it('refuses a frame whose CRC does not match', async () => {
    const corrupt = Uint8Array.from(second);
    corrupt[corrupt.length - 1] ^= 0xff;
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const f of readEventStream(chunks(first, corrupt))) seen.push(f.headers[':event-type']);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['messageStart']);
    expect(String((failure as Error).message)).toMatch(/malformed event-stream frame: .*checksum/);
  });

  it('refuses an impossible frame length and an answer cut inside a frame', async () => {
    const huge = Buffer.alloc(16);
    huge.writeUInt32BE(0x7fffffff, 0);
    await expect(collect(readEventStream(chunks(huge)))).rejects.toThrow(/frame length of 2147483647 bytes/);
    await expect(collect(readEventStream(chunks(first.subarray(0, 20))))).rejects.toThrow(/ended inside a frame/);
  });
});

describe('invokeStreamToSse', () => {
  const chunk = (event: object) =>
    frame({ ':message-type': 'event', ':event-type': 'chunk' }, { bytes: Buffer.from(JSON.stringify(event)).toString('base64') });

  it('turns chunk frames into Anthropic SSE events', async () => {
    const text = (await collect(invokeStreamToSse(chunks(chunk({ type: 'message_stop' }))))).join('');
    expect(text).toBe('event: message_stop\ndata: {"type":"message_stop"}\n\n');
  });

  it('turns an exception frame into an Anthropic error event of the matching type', async () => {
    const exception = frame({ ':message-type': 'exception', ':exception-type': 'throttlingException' }, { message: 'slow down' });
    const text = (await collect(invokeStreamToSse(chunks(chunk({ type: 'ping' }), exception)))).join('');
    expect(text).toBe(
      'event: ping\ndata: {"type":"ping"}\n\n' +
        'event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"bedrock upstream: throttlingException: slow down"}}\n\n',
    );
  });

  it('turns a corrupt frame into an api_error event', async () => {
    const corrupt = Uint8Array.from(chunk({ type: 'ping' }));
    corrupt[corrupt.length - 1] ^= 0xff;
    const text = (await collect(invokeStreamToSse(chunks(corrupt)))).join('');
    expect(text).toMatch(
      /^event: error\ndata: \{"type":"error","error":\{"type":"api_error","message":"bedrock upstream sent a malformed event-stream frame: /,
    );
  });
});
