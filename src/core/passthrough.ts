/**
 * A same-dialect request relayed untranslated, and the upstream's answer relayed as it came.
 * Pass-through keeps native features intact: the gateway reads only what it needs from either.
 */
import type { Readable } from 'node:stream';
import type { GatewayError } from './errors.js';
import type { Dialect } from './operation.js';
import type { Usage } from './usage.js';

export interface RawChatRequest {
  dialect: Dialect;
  /**
   * The client's parsed JSON body (for `responses`, after the surface's relay policy: the
   * gateway's state expanded, `store: false`); the provider rewrites only the model.
   */
  body: Record<string, unknown>;
  stream: boolean;
  /** Dialect headers of the client worth forwarding (e.g. `anthropic-version`, `anthropic-beta`). */
  headers?: Record<string, string>;
  /** The public model id the client asked for; defaults to `body.model` when that is a string (Gemini has it in the URL). */
  model?: string;
  /**
   * When true (the default), the answer names the public model id instead of the upstream's
   * name (OpenAI `model`, Anthropic `model` / `message_start.message.model`, Gemini `modelVersion`).
   */
  publicModel?: boolean;
  /**
   * For a stream: runs once the upstream's stream has ended, with what the relay read; the
   * relay's last bytes and its end wait for it (the gateway journals the call's usage here, so
   * a crash cannot lose the usage of an answer the client received whole).
   */
  beforeEnd?: (result: TapResult) => Promise<unknown>;
  /** The dialect's in-stream error event (the surface's), to end a relayed stream the gateway cuts itself. */
  errorEvent?: (error: GatewayError) => string;
  /**
   * For a stream (set by the gateway from `errorEvent`): when the upstream body fails, the bytes
   * to end the relay with instead of a cut connection — the error event when the gateway itself
   * ended the call (the drain deadline, a revoked key) — or undefined to cut it.
   */
  cutEvent?: () => string | undefined;
}

/** What the relay learnt once it is over. */
export interface TapResult {
  /** The last usage the upstream reported, if any (SSE reports are merged, later ones win). */
  usage?: Usage;
  /** True only when the upstream body ended normally (not cut by the client or the connection). */
  completed: boolean;
  /**
   * Assistant text and tool-argument text seen in a stream cut short (capped), to bill what was
   * produced; empty when the body ended normally and for JSON answers.
   */
  producedText: string;
}

/**
 * The upstream's successful answer to a pass-through request, relayed to the client: the
 * upstream's bytes, except the public model id where the upstream named its own model and
 * (OpenAI) what the gateway itself asked for to meter a stream.
 */
export interface PassthroughResponse {
  status: number;
  /** Headers to relay: content-type, and content-length for a sized body. Never the upstream's request id. */
  headers: Record<string, string>;
  /** The upstream's own request id (`x-request-id` / `request-id`), for `x-gengate-upstream-request-id`. */
  upstreamRequestId?: string;
  /**
   * The answer's bytes: a stream, tapped (reading it to the end, or dropping it, settles `usage`),
   * or, for a JSON answer read whole, the bytes themselves (sent in one write).
   */
  body: Readable | Buffer;
  /**
   * Settles once the relay is over: the usage read (if any), whether the upstream body ended
   * normally, and the text produced so far (to bill a stream cut short). Never rejects.
   */
  usage: Promise<TapResult>;
}
