/**
 * `InvokeModelWithResponseStream` answers for Claude → Anthropic SSE text. Each `chunk` frame's
 * payload is `{"bytes": "<base64 of one Messages stream event's JSON>"}`; it becomes
 * `event: <type>\ndata: <json>\n\n`, so that Anthropic's stream decoding and pass-through read
 * Bedrock's stream as Anthropic's own. An exception frame, or a frame that fails its CRC, becomes
 * an Anthropic `error` event (the type a client knows: throttling is `rate_limit_error`) and ends
 * the stream.
 */
import { Readable } from 'node:stream';
import { isGatewayError } from '../../core/errors.js';
import { framePayloadJson, readEventStream } from './event-stream.js';
import { mapBedrockStreamException } from './map-bedrock-error.js';

const ANTHROPIC_TYPE_BY_EXCEPTION: Record<string, string> = {
  throttlingException: 'rate_limit_error',
  serviceUnavailableException: 'overloaded_error',
  modelTimeoutException: 'timeout_error',
  validationException: 'invalid_request_error',
};

function errorEvent(type: string, message: string): string {
  return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`;
}

async function* sseOf(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  try {
    for await (const frame of readEventStream(body)) {
      if (frame.headers[':message-type'] === 'exception') {
        const type = frame.headers[':exception-type'];
        yield errorEvent(ANTHROPIC_TYPE_BY_EXCEPTION[type ?? ''] ?? 'api_error', mapBedrockStreamException(type, frame.payload).message);
        return;
      }
      if (frame.headers[':event-type'] !== 'chunk') continue;
      const bytes = framePayloadJson(frame).bytes;
      const json = typeof bytes === 'string' ? Buffer.from(bytes, 'base64').toString('utf8') : '';
      let type: unknown;
      try {
        type = (JSON.parse(json) as { type?: unknown }).type;
      } catch {
        type = undefined;
      }
      if (typeof type !== 'string' || !/^[a-z_]{1,64}$/.test(type)) {
        yield errorEvent('api_error', 'bedrock upstream sent a chunk that is not a Messages stream event');
        return;
      }
      yield `event: ${type}\ndata: ${json}\n\n`;
    }
  } catch (error) {
    yield errorEvent('api_error', isGatewayError(error) ? error.message : 'bedrock upstream stream failed');
  }
}

/** The SSE text as a byte stream; destroying it stops reading (and closes) the upstream answer. */
export function invokeStreamToSse(body: AsyncIterable<Uint8Array | string>): Readable {
  return Readable.from(sseOf(body), { objectMode: false });
}
