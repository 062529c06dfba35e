/**
 * AWS's binary event-stream framing (`application/vnd.amazon.eventstream`), read from an answer's
 * bytes: each frame is a prelude (total length, headers length, the prelude's CRC32), headers,
 * a payload and the frame's CRC32. Frames are cut here by their length and decoded (both CRCs
 * checked) by the AWS SDK's codec. A frame that fails its check, claims an impossible length or
 * is cut off by the end of the body ends the stream with an upstream error.
 */
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { GatewayError } from '../../core/errors.js';

/** Frames are at most 16 MiB (AWS's event-stream limit); the prelude and CRC take 16 bytes. */
const MAX_FRAME_BYTES = 16 * 1024 * 1024;
const MIN_FRAME_BYTES = 16;

type MessageHeaders = ReturnType<EventStreamCodec['decode']>['headers'];

const encoder = new TextEncoder();
const decoder = new TextDecoder();
export const eventStreamCodec = new EventStreamCodec(
  (bytes) => decoder.decode(bytes),
  (text) => encoder.encode(text),
);

export interface EventStreamFrame {
  /** String-valued headers (`:message-type`, `:event-type`, `:exception-type`, …). */
  headers: Record<string, string>;
  payload: Uint8Array;
}

function malformed(why: string): GatewayError {
  return new GatewayError('upstream', `bedrock upstream sent a malformed event-stream frame: ${why}`, { retryable: true, code: 'malformed_event_stream' });
}

function stringHeaders(headers: MessageHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, header] of Object.entries(headers)) {
    if (header.type === 'string') out[name] = header.value;
  }
  return out;
}

export async function* readEventStream(body: AsyncIterable<Uint8Array | string>): AsyncGenerator<EventStreamFrame> {
  let buffered: Buffer = Buffer.alloc(0);
  for await (const chunk of body) {
    buffered = buffered.length === 0 ? Buffer.from(chunk) : Buffer.concat([buffered, Buffer.from(chunk)]);
    while (buffered.length >= 4) {
      const total = buffered.readUInt32BE(0);
      if (total < MIN_FRAME_BYTES || total > MAX_FRAME_BYTES) throw malformed(`a frame length of ${total} bytes`);
      if (buffered.length < total) break;
      const frame = buffered.subarray(0, total);
      buffered = buffered.subarray(total);
      let decoded: ReturnType<EventStreamCodec['decode']>;
      try {
        decoded = eventStreamCodec.decode(frame);
      } catch (error) {
        throw malformed(error instanceof Error ? error.message : 'undecodable');
      }
      yield { headers: stringHeaders(decoded.headers), payload: decoded.body };
    }
  }
  if (buffered.length > 0) throw malformed(`the answer ended inside a frame (${buffered.length} bytes left)`);
}

/** A frame's payload as JSON; a payload that is not a JSON object is the upstream's fault. */
export function framePayloadJson(frame: EventStreamFrame): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(decoder.decode(frame.payload));
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  throw malformed(`the payload of a ${frame.headers[':event-type'] ?? frame.headers[':message-type'] ?? 'frame'} event is not a JSON object`);
}
