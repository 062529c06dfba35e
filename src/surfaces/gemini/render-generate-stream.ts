/**
 * Canonical chat events → Gemini `streamGenerateContent` chunks. Each chunk is a whole
 * GenerateContentResponse: text and thoughts go out as they arrive; a tool call goes out as
 * one `functionCall` part with complete `args` once its arguments are complete (Gemini never
 * streams partial arguments), i.e. when any other event follows; the last chunk carries
 * `finishReason` and `usageMetadata`. A failure after chunks went out becomes a final
 * `{"error":{…}}` chunk, which is how Google reports mid-stream errors.
 *
 * Two framings: SSE (`?alt=sse`, what the SDKs use) and the default streamed JSON array.
 */
import type { ChatEvent } from '../../core/chat.js';
import { GatewayError, toGatewayError } from '../../core/errors.js';
import { sseData } from '../../core/sse.js';
import type { GeminiErrorBody, GeminiGenerateContentResponse, GeminiPart } from '../../core/wire/gemini-types.js';
import { toGeminiUsage } from '../../core/wire/gemini-usage.js';
import { geminiErrorBody } from './render-error.js';
import { toGeminiFinishReason } from './to-gemini-finish-reason.js';
import { toolCallArgs } from './tool-call-args.js';

type GeminiStreamChunk = GeminiGenerateContentResponse | GeminiErrorBody;

/** Arguments held until a call is complete; past this the stream fails rather than grows. */
const MAX_PENDING_ARGUMENT_CHARS = 4 * 1024 * 1024;

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

async function* geminiStreamChunks(events: AsyncIterable<ChatEvent>): AsyncGenerator<GeminiStreamChunk> {
  let responseId: string | undefined;
  let model: string | undefined;
  // Keyed by the canonical index; Map keeps the order the calls started in.
  const pending = new Map<number, PendingCall>();
  let pendingChars = 0;
  const chunk = (parts: GeminiPart[]): GeminiGenerateContentResponse => ({
    candidates: [{ content: { role: 'model', parts }, index: 0 }],
    modelVersion: model,
    responseId,
  });
  const takeCalls = (): GeminiPart[] => {
    const parts: GeminiPart[] = [];
    for (const call of pending.values()) parts.push({ functionCall: { id: call.id, name: call.name, args: toolCallArgs(call.args) } });
    pending.clear();
    pendingChars = 0;
    return parts;
  };

  try {
    for await (const event of events) {
      switch (event.type) {
        case 'start':
          responseId = event.id;
          model = event.model;
          break;
        case 'text_delta':
          if (pending.size > 0) yield chunk(takeCalls());
          if (event.text.length > 0) yield chunk([{ text: event.text }]);
          break;
        case 'thinking_delta': {
          if (pending.size > 0) yield chunk(takeCalls());
          // A signature closes the thought it follows; the client sends it back on that part.
          const part: GeminiPart = { text: event.text, thought: true };
          if (event.signature) part.thoughtSignature = event.signature;
          if (event.text.length > 0 || event.signature) yield chunk([part]);
          break;
        }
        case 'tool_call_start':
          pending.set(event.index, { id: event.id, name: event.name, args: '' });
          break;
        case 'tool_call_delta': {
          const call = pending.get(event.index);
          if (!call) break;
          call.args += event.argumentsDelta;
          pendingChars += event.argumentsDelta.length;
          if (pendingChars > MAX_PENDING_ARGUMENT_CHARS) {
            throw new GatewayError(
              'upstream',
              `the upstream sent more than ${MAX_PENDING_ARGUMENT_CHARS} characters of tool-call arguments; the stream was stopped`,
            );
          }
          break;
        }
        case 'usage':
          break;
        case 'finish': {
          const calls = takeCalls();
          const last = chunk(calls.length > 0 ? calls : [{ text: '' }]);
          last.candidates![0].finishReason = toGeminiFinishReason(event.finishReason);
          last.usageMetadata = toGeminiUsage(event.usage);
          yield last;
          return;
        }
        case 'error':
          yield geminiErrorBody(event.error);
          return;
      }
    }
    yield geminiErrorBody(new GatewayError('upstream', 'the upstream stream ended before the response was complete', { retryable: false }));
  } catch (error) {
    yield geminiErrorBody(toGatewayError(error));
  }
}

/** `data: {…}\n\n` frames: no `event:` line and no `[DONE]`, like Google's `alt=sse`. */
export async function* renderGeminiSseStream(events: AsyncIterable<ChatEvent>): AsyncGenerator<string> {
  for await (const item of geminiStreamChunks(events)) yield sseData(JSON.stringify(item));
}

/** The final `{"error":{…}}` chunk of an SSE stream, as Google reports mid-stream errors. */
export function geminiSseErrorFrame(error: GatewayError): string {
  return sseData(JSON.stringify(geminiErrorBody(error)));
}

/** The default (no `alt=sse`) framing: one JSON array, streamed element by element. */
export async function* renderGeminiJsonArrayStream(events: AsyncIterable<ChatEvent>): AsyncGenerator<string> {
  let first = true;
  for await (const item of geminiStreamChunks(events)) {
    yield `${first ? '[' : ',\r\n'}${JSON.stringify(item)}`;
    first = false;
  }
  yield first ? '[]' : ']';
}
