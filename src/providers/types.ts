/**
 * The contract every upstream adapter implements. A provider declares the operations it
 * supports and implements only those; the router never calls what is not declared.
 */
import type { Readable } from 'node:stream';
import type { ChatEvent, ChatRequest, ChatResponse } from '../core/chat.js';
import type { EmbedRequest, EmbedResponse } from '../core/embed.js';
import type { ImageBlendRequest, ImageEditRequest, ImageGenerateRequest, ImageRemixRequest, ImageResult } from '../core/image.js';
import type { Dialect, Operation } from '../core/operation.js';
import type { TapResult } from './shared/usage-tap.js';

export type ProviderName = 'openai' | 'openai-compatible' | 'anthropic' | 'gemini' | 'bfl' | 'replicate' | 'ideogram' | 'sandbox';

/** A configured provider instance, as the router hands it to a provider. */
export interface ChannelConfig {
  name: string;
  provider: ProviderName;
  /** Upstream base URL, e.g. `https://api.openai.com/v1`; ignored by the sandbox. */
  baseUrl: string;
  /** Decrypted upstream credential; empty for the sandbox and keyless local servers. */
  apiKey: string;
  /** Extra headers sent upstream on every request (e.g. an organisation id). */
  headers: Record<string, string>;
  /** Per-attempt timeout for reaching the upstream and receiving its first byte. */
  timeoutMs: number;
  /** Provider-specific settings (e.g. `anthropicVersion`, sandbox pacing). */
  options: Record<string, unknown>;
}

/** What a provider needs for one attempt. */
export interface Attempt {
  channel: ChannelConfig;
  /** The model name as the upstream knows it (after the channel's rewrite). */
  upstreamModel: string;
  /** Aborted when the client goes away or the attempt times out. */
  signal: AbortSignal;
  requestId: string;
}

/** A same-dialect request forwarded untranslated. */
export interface RawChatRequest {
  dialect: Dialect;
  /** The client's parsed JSON body; the provider rewrites only the model. */
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
  /** The answer's bytes, tapped: reading them to the end (or dropping them) settles `usage`. */
  body: Readable;
  /**
   * Settles once the relay is over: the usage read (if any), whether the upstream body ended
   * normally, and the text produced so far (to bill a stream cut short). Never rejects.
   */
  usage: Promise<TapResult>;
}

export interface ChatProvider {
  /** Resolves with the complete response; throws GatewayError. */
  chat(request: ChatRequest, attempt: Attempt): Promise<ChatResponse>;
  /**
   * Resolves once the upstream has accepted the request (status checked, before any event
   * is read), so that a failure here can still be retried on another channel.
   */
  chatStream(request: ChatRequest, attempt: Attempt): Promise<AsyncIterable<ChatEvent>>;
  /**
   * Present when the provider speaks a client dialect natively. Resolves only for a 2xx
   * answer; any other answer is thrown as a GatewayError like in `chat`.
   */
  passthrough?(request: RawChatRequest, attempt: Attempt): Promise<PassthroughResponse>;
}

export interface EmbedProvider {
  /** The most inputs one upstream call takes; the gateway splits larger requests and reassembles them in order. */
  maxBatchSize(channel: ChannelConfig): number;
  /** Embeds at most `maxBatchSize` inputs; resolves vectors in input order. */
  embed(request: EmbedRequest, attempt: Attempt): Promise<EmbedResponse>;
}

/**
 * Image operations; a provider implements those its upstream offers. Each resolves once the
 * images exist (providers whose upstream is asynchronous poll within the attempt's deadline).
 */
export interface ImageProvider {
  generate?(request: ImageGenerateRequest, attempt: Attempt): Promise<ImageResult>;
  edit?(request: ImageEditRequest, attempt: Attempt): Promise<ImageResult>;
  remix?(request: ImageRemixRequest, attempt: Attempt): Promise<ImageResult>;
  blend?(request: ImageBlendRequest, attempt: Attempt): Promise<ImageResult>;
}

export interface Provider {
  readonly name: ProviderName;
  /** The dialect this provider speaks natively, if it is one of the client dialects. */
  readonly dialect?: Dialect;
  readonly operations: ReadonlySet<Operation>;
  /** True for providers that simulate (every answer must say so). */
  readonly simulated?: boolean;
  readonly chat?: ChatProvider;
  readonly embed?: EmbedProvider;
  readonly images?: ImageProvider;
}
