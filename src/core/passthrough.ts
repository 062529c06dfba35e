/**
 * A same-dialect request relayed untranslated, and the upstream's answer relayed as it came.
 * Pass-through keeps native features intact: the gateway reads only what it needs from either.
 */
import type { Readable } from 'node:stream';
import type { Dialect } from './operation.js';
import type { Usage } from './usage.js';

export interface RawChatRequest {
  dialect: Dialect;
  /** The client's parsed JSON body; the provider rewrites only the model. */
  body: Record<string, unknown>;
  stream: boolean;
  /** Dialect headers of the client worth forwarding (e.g. `anthropic-version`, `anthropic-beta`). */
  headers?: Record<string, string>;
}

/** The upstream's successful answer to a pass-through request, relayed to the client as is. */
export interface PassthroughResponse {
  status: number;
  /** Headers worth relaying (content-type and the upstream's request id). */
  headers: Record<string, string>;
  /** The upstream bytes, tapped: reading it to the end settles `usage`. */
  body: Readable;
  /** Usage read from the relayed bytes; resolves when the body ends (undefined if none seen). */
  usage: Promise<Usage | undefined>;
}
