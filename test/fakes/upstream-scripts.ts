/**
 * Canned upstream streams, byte for byte as the real APIs send them, for `replayNext`:
 * parallel tool calls whose argument deltas interleave (OpenAI), refusals (OpenAI `refusal`
 * deltas; Anthropic `stop_reason: "refusal"`), and text whose multi-byte characters are cut
 * across TCP reads (all three upstreams).
 */
import { cutInsideCharacters, type ScriptedStream, sseFrames } from './scripted-sse.js';

/** Text with 2-, 3- and 4-byte UTF-8 characters. */
export const MULTIBYTE_TEXT = 'Grüße aus Köln — 日本語 🎉👍🏽 done';

const OPENAI_ID = 'chatcmpl-scripted1';
const CREATED = 1_700_000_000;

function openaiChunk(model: string, delta: Record<string, unknown>, finishReason: string | null = null): { data: unknown } {
  return {
    data: {
      id: OPENAI_ID,
      object: 'chat.completion.chunk',
      created: CREATED,
      model,
      system_fingerprint: 'fp_scripted',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      usage: null,
    },
  };
}

function openaiTail(model: string, finishReason: string, completionTokens: number): Array<{ data: unknown }> {
  return [
    openaiChunk(model, {}, finishReason),
    {
      data: {
        id: OPENAI_ID,
        object: 'chat.completion.chunk',
        created: CREATED,
        model,
        system_fingerprint: 'fp_scripted',
        choices: [],
        usage: { prompt_tokens: 20, completion_tokens: completionTokens, total_tokens: 20 + completionTokens },
      },
    },
    { data: '[DONE]' },
  ];
}

/** Two tool calls: start 0, start 1, args 0, args 1, args 0, args 1 (what some servers send). */
export function openaiInterleavedToolCalls(model: string): ScriptedStream {
  const call = (index: number, fields: Record<string, unknown>) => openaiChunk(model, { tool_calls: [{ index, ...fields }] });
  return {
    pieces: sseFrames([
      openaiChunk(model, { role: 'assistant', content: null, refusal: null }),
      call(0, { id: 'call_paris', type: 'function', function: { name: 'get_weather', arguments: '' } }),
      call(1, { id: 'call_tokyo', type: 'function', function: { name: 'get_weather', arguments: '' } }),
      call(0, { function: { arguments: '{"city":' } }),
      call(1, { function: { arguments: '{"city":"Tok' } }),
      call(0, { function: { arguments: '"Paris"}' } }),
      call(1, { function: { arguments: 'yo"}' } }),
      ...openaiTail(model, 'tool_calls', 18),
    ]),
  };
}

export const REFUSAL_TEXT = "I'm sorry, but I can't help with that.";

/** A refusal: `refusal` deltas instead of `content`, finish_reason `stop`. */
export function openaiRefusal(model: string): ScriptedStream {
  return {
    pieces: sseFrames([
      openaiChunk(model, { role: 'assistant', content: null, refusal: '' }),
      openaiChunk(model, { refusal: "I'm sorry, " }),
      openaiChunk(model, { refusal: "but I can't help with that." }),
      ...openaiTail(model, 'stop', 11),
    ]),
  };
}

export function openaiSplitUtf8(model: string): ScriptedStream {
  const [first, ...rest] = MULTIBYTE_TEXT.split(' ');
  const text = sseFrames([
    openaiChunk(model, { role: 'assistant', content: '', refusal: null }),
    openaiChunk(model, { content: first }),
    ...rest.map((word) => openaiChunk(model, { content: ` ${word}` })),
    ...openaiTail(model, 'stop', 9),
  ]).join('');
  return { pieces: cutInsideCharacters(text) };
}

function anthropicEvents(model: string, text: string, stopReason: string): Array<{ event: string; data: unknown }> {
  const half = Math.ceil(text.length / 2);
  return [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          id: 'msg_scripted01',
          type: 'message',
          role: 'assistant',
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
        },
      },
    },
    { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
    { event: 'ping', data: { type: 'ping' } },
    { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: text.slice(0, half) } } },
    { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: text.slice(half) } } },
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 12 } } },
    { event: 'message_stop', data: { type: 'message_stop' } },
  ];
}

/** Claude's streaming classifier stopping an answer: `stop_reason: "refusal"`. */
export function anthropicRefusal(model: string): ScriptedStream {
  return { pieces: sseFrames(anthropicEvents(model, REFUSAL_TEXT, 'refusal')) };
}

export function anthropicSplitUtf8(model: string): ScriptedStream {
  return { pieces: cutInsideCharacters(sseFrames(anthropicEvents(model, MULTIBYTE_TEXT, 'end_turn')).join('')) };
}

/** Gemini `alt=sse`: one-line `data:` chunks, CRLF framing, no [DONE]. */
export function geminiSplitUtf8(model: string): ScriptedStream {
  const words = MULTIBYTE_TEXT.split(' ');
  const half = Math.ceil(words.length / 2);
  const chunk = (text: string, final: boolean) => ({
    data: {
      candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0, ...(final ? { finishReason: 'STOP' } : {}) }],
      usageMetadata: final ? { promptTokenCount: 20, candidatesTokenCount: 9, totalTokenCount: 29 } : { promptTokenCount: 20, totalTokenCount: 20 },
      modelVersion: model,
      responseId: 'scripted-gemini-1',
    },
  });
  const text = sseFrames([chunk(words.slice(0, half).join(' '), false), chunk(` ${words.slice(half).join(' ')}`, true)], '\r\n').join('');
  return { pieces: cutInsideCharacters(text) };
}
