/**
 * Canonical ChatEvents → OpenAI `chat.completion.chunk` SSE frames, as OpenAI streams them:
 * the same id/created on every chunk, a first delta with the role, text and tool-call deltas,
 * a final chunk with the finish reason, an optional usage-only chunk, then `data: [DONE]`.
 * Thinking streams as `reasoning_content` deltas; once a thinking block is signed, one chunk
 * carries it whole in `thinking_blocks`, for the client to send back (docs/reasoning.md).
 * A failure after frames went out becomes an in-stream `{"error":…}` frame.
 */
import type { ChatEvent } from '../../core/chat.js';
import { GatewayError, toGatewayError } from '../../core/errors.js';
import { nowSeconds, randomId } from '../../core/ids.js';
import { sseData } from '../../core/sse.js';
import { mergeUsage, type Usage } from '../../core/usage.js';
import type { OpenAIChatCompletionChunk, OpenAIChunkDelta } from '../../core/wire/openai-chat-types.js';
import { toOpenAIFinishReason } from '../../core/wire/openai-finish-reason.js';
import { toOpenAIUsage } from '../../core/wire/openai-usage.js';
import { toOpenAIErrorObject } from './render-error.js';

interface OpenAIStreamOptions {
  /** The public model id the client asked for; used when the stream fails before `start`. */
  model: string;
  /** `stream_options.include_usage`: add `usage:null` to each chunk and a final usage chunk. */
  includeUsage: boolean;
}

type Choice = OpenAIChatCompletionChunk['choices'][number];

export async function* renderOpenAIChatStream(events: AsyncIterable<ChatEvent>, options: OpenAIStreamOptions): AsyncGenerator<string> {
  let id = '';
  let created = 0;
  let model = options.model;
  let started = false;
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  // Canonical tool-call indexes may count other blocks; OpenAI clients need 0, 1, 2… among calls.
  const toolIndexes = new Map<number, number>();
  /** The text of the thinking block being streamed (signed when its signature arrives). */
  let thinking = '';

  const chunk = (choices: Choice[], finalUsage?: Usage): string => {
    const body: OpenAIChatCompletionChunk = { id, object: 'chat.completion.chunk', created, model, choices };
    if (options.includeUsage) body.usage = finalUsage ? toOpenAIUsage(finalUsage) : null;
    return sseData(JSON.stringify(body));
  };
  const delta = (value: OpenAIChunkDelta, finishReason: Choice['finish_reason'] = null): string =>
    chunk([{ index: 0, delta: value, logprobs: null, finish_reason: finishReason }]);
  const begin = (): string => {
    if (id === '') id = `chatcmpl-${randomId(29)}`;
    if (created === 0) created = nowSeconds();
    started = true;
    return delta({ role: 'assistant', content: '' });
  };

  try {
    for await (const event of events) {
      if (event.type !== 'thinking_delta') thinking = '';
      switch (event.type) {
        case 'start':
          if (started) break;
          id = event.id;
          created = event.created;
          model = event.model;
          mergeUsage(usage, event.usage);
          yield begin();
          break;
        case 'text_delta':
          if (!started) yield begin();
          if (event.text.length > 0) yield delta({ content: event.text });
          break;
        case 'tool_call_start': {
          if (!started) yield begin();
          const index = toolIndexes.size;
          toolIndexes.set(event.index, index);
          yield delta({ tool_calls: [{ index, id: event.id, type: 'function', function: { name: event.name, arguments: '' } }] });
          break;
        }
        case 'tool_call_delta': {
          const index = toolIndexes.get(event.index);
          if (index !== undefined && event.argumentsDelta.length > 0) {
            yield delta({ tool_calls: [{ index, function: { arguments: event.argumentsDelta } }] });
          }
          break;
        }
        case 'usage':
          mergeUsage(usage, event.usage);
          break;
        case 'finish':
          if (!started) yield begin();
          mergeUsage(usage, event.usage);
          yield delta({}, toOpenAIFinishReason(event.finishReason));
          if (options.includeUsage) yield chunk([], usage);
          yield sseData('[DONE]');
          return;
        case 'error':
          yield openAIStreamErrorFrame(event.error);
          return;
        case 'thinking_delta':
          if (!started) yield begin();
          if (event.text.length > 0) {
            thinking += event.text;
            yield delta({ reasoning_content: event.text });
          }
          if (event.signature) {
            yield delta({ thinking_blocks: [{ type: 'thinking', thinking, signature: event.signature }] });
            thinking = '';
          }
          break;
      }
    }
    yield openAIStreamErrorFrame(new GatewayError('upstream', 'upstream stream ended before the response was complete'));
  } catch (error) {
    yield openAIStreamErrorFrame(toGatewayError(error));
  }
}

/** The in-stream error chunk (`data: {"error":{…}}`). */
export function openAIStreamErrorFrame(error: GatewayError): string {
  return sseData(JSON.stringify({ error: toOpenAIErrorObject(error) }));
}
