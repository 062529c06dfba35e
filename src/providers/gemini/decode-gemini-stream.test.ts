import { describe, expect, it } from 'vitest';
import type { ChatEvent } from '../../core/chat.js';
import { decodeGeminiStream } from './decode-gemini-stream.js';

async function* bytes(...pieces: string[]): AsyncGenerator<Uint8Array> {
  for (const piece of pieces) yield new TextEncoder().encode(piece);
}

async function decode(...pieces: string[]): Promise<ChatEvent[]> {
  const events: ChatEvent[] = [];
  for await (const event of decodeGeminiStream(bytes(...pieces), 'gemini-2.5-flash')) events.push(event);
  return events;
}

const frame = (chunk: unknown): string => `data: ${JSON.stringify(chunk)}\r\n\r\n`;

describe('decodeGeminiStream', () => {
  it('turns text chunks into deltas and takes the finish and usage of the last chunk', async () => {
    const first = frame({
      candidates: [{ content: { parts: [{ text: 'Hello' }], role: 'model' }, index: 0 }],
      usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'r-1',
    });
    const last = frame({
      candidates: [{ content: { parts: [{ text: ' world' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 2, totalTokenCount: 11 },
      modelVersion: 'gemini-2.5-flash',
      responseId: 'r-1',
    });
    // Split mid-frame to exercise incremental decoding.
    const events = await decode(first.slice(0, 17), first.slice(17) + last.slice(0, 30), last.slice(30));
    expect(events).toEqual([
      { type: 'start', id: 'r-1', model: 'gemini-2.5-flash', created: expect.any(Number) },
      { type: 'text_delta', text: 'Hello' },
      { type: 'text_delta', text: ' world' },
      { type: 'finish', finishReason: 'stop', usage: { inputTokens: 9, outputTokens: 2 } },
    ]);
  });

  it('turns a function call into one start and one complete delta, and thoughts into thinking', async () => {
    const events = await decode(
      frame({ candidates: [{ content: { parts: [{ text: 'Planning.', thought: true }], role: 'model' } }], responseId: 'r-2' }),
      frame({
        candidates: [
          {
            content: { parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'c2ln' }], role: 'model' },
            finishReason: 'STOP',
          },
        ],
        usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 5, thoughtsTokenCount: 7, totalTokenCount: 32 },
      }),
    );
    expect(events).toEqual([
      { type: 'start', id: 'r-2', model: 'gemini-2.5-flash', created: expect.any(Number) },
      { type: 'thinking_delta', text: 'Planning.' },
      { type: 'tool_call_start', index: 0, id: expect.stringMatching(/^call_/), name: 'get_weather' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"city":"Paris"}' },
      { type: 'finish', finishReason: 'tool_calls', usage: { inputTokens: 20, outputTokens: 12, reasoningTokens: 7 } },
    ]);
  });

  it('maps MAX_TOKENS to length', async () => {
    const events = await decode(frame({ candidates: [{ content: { parts: [{ text: 'cut' }] }, finishReason: 'MAX_TOKENS' }] }));
    expect(events.at(-1)).toEqual({ type: 'finish', finishReason: 'length', usage: { inputTokens: 0, outputTokens: 0 } });
  });

  it('reports a blocked prompt as content_filter', async () => {
    const events = await decode(frame({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 } }));
    expect(events.map((e) => e.type)).toEqual(['start', 'finish']);
    expect(events[1]).toEqual({ type: 'finish', finishReason: 'content_filter', usage: { inputTokens: 4, outputTokens: 0 } });
  });

  it('ends with an error event on an error chunk', async () => {
    const events = await decode(
      frame({ candidates: [{ content: { parts: [{ text: 'Hi' }] } }] }),
      frame({ error: { code: 500, message: 'An internal error has occurred.', status: 'INTERNAL' } }),
    );
    expect(events.map((e) => e.type)).toEqual(['start', 'text_delta', 'error']);
    const last = events[2];
    expect(last.type === 'error' && last.error.kind).toBe('upstream');
    expect(last.type === 'error' && last.error.message).toBe('gemini upstream: An internal error has occurred.');
  });

  it('throws an upstream error on a chunk that is not JSON', async () => {
    await expect(decode('data: {not json\n\n')).rejects.toMatchObject({ kind: 'upstream' });
  });
});
