/**
 * The contract every upstream adapter implements. A provider declares the operations it
 * supports and implements only those; the router never calls what is not declared.
 */
import type { ChatEvent, ChatRequest, ChatResponse } from '../core/chat.js';
import type { EmbedRequest, EmbedResponse } from '../core/embed.js';
import type { ImageBlendRequest, ImageEditRequest, ImageGenerateRequest, ImageRemixRequest, ImageResult } from '../core/image.js';
import type { Dialect, Operation } from '../core/operation.js';
import type { PassthroughResponse, RawChatRequest } from '../core/passthrough.js';
import type { MediaRef, StoredTaskRequest, TaskObservation, TaskOperation, TaskRequest, TaskResult } from '../core/task.js';

/** The name of a registered provider (`src/providers/registry.ts` lists them). */
export type ProviderName = string;

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
  /**
   * The model's own output-token limit from the gateway's catalog, when the model is listed:
   * the cap a provider uses when the client set none and its upstream requires one.
   */
  maxOutputTokens?: number;
  /**
   * Tells the client that a setting of its request was dropped or approximated because the
   * upstream cannot express it (sent as `x-gengate-warnings`), e.g. `seed: not supported by Anthropic`.
   */
  warn?(message: string): void;
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
  /**
   * Whether this channel relays `dialect` (one its provider declares) untranslated; absent:
   * always. Lets a channel opt out of a dialect its server does not serve (a proxy in front of
   * OpenAI without the Responses API), which is then translated.
   */
  relaysOn?(dialect: Dialect, channel: ChannelConfig): boolean;
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

/** A task as a provider sees it when polling: where it runs upstream and what was asked. */
export interface TaskTarget {
  /** The gateway's task id (for logs; never sent upstream). */
  taskId: string;
  operation: TaskOperation;
  upstreamModel: string;
  upstreamId: string;
  /** What `submit` chose to keep (e.g. a polling URL, the sandbox's timeline). */
  upstreamData?: Record<string, unknown>;
  /** The request without image bytes. */
  request: StoredTaskRequest;
  createdAt: number;
}

export interface TaskSubmitAttempt extends Attempt {
  taskId: string;
  /**
   * Where the upstream may call back to wake the task (set only when the gateway has a public
   * URL configured). A callback only triggers an immediate poll; it is never billed from.
   */
  callbackUrl?: string;
  /** For image actions: the task acted on (same channel), with its result. */
  parent?: TaskTarget & { result?: TaskResult };
  /** Reads a stored result file (e.g. the parent's grid, for the sandbox's upscale). */
  loadMedia(ref: MediaRef): Promise<Uint8Array>;
  /** Stores a produced file now (the sandbox makes its outputs at submit). */
  storeMedia(data: Uint8Array, mime: string, kind: MediaRef['kind']): Promise<MediaRef>;
}

/** What the upstream answered to a submit. */
export interface TaskSubmission {
  upstreamId: string;
  upstreamData?: Record<string, unknown>;
  /** The state the submit answer already shows, when it shows one. */
  observation?: TaskObservation;
}

export interface TaskPollContext {
  channel: ChannelConfig;
  signal: AbortSignal;
}

/** How often a vendor's tasks are polled; delays grow from `firstDelayMs` by `factor` (with jitter) up to `maxDelayMs`. */
export interface TaskPollPolicy {
  firstDelayMs: number;
  maxDelayMs: number;
  factor: number;
  /** A task not finished this long after its creation is failed and refunded. */
  deadlineMs: number;
  /** The most tasks one `pollMany` call takes. */
  maxBatch: number;
}

/**
 * A task vendor's poll policy as descriptor data: `createProvider` makes the task part's
 * `pollPolicy` from it, honouring the channel options `pollIntervalMs` and `deadlineMs`
 * (`shared/task-poll-options.ts`).
 */
export interface TaskPolling {
  readonly defaults: TaskPollPolicy;
  /** The longest `deadlineMs` a channel may set (a week unless the upstream keeps tasks for less). */
  readonly maxDeadlineMs?: number;
}

/**
 * Asynchronous operations: the engine inserts the task, calls `submit` once (never again for
 * the same task), then polls on its own schedule. Errors are GatewayErrors; a `rate_limit`
 * error's `retryAfter` holds the whole channel's polls back.
 */
export interface TaskProvider {
  readonly operations: ReadonlySet<TaskOperation>;
  pollPolicy(channel: ChannelConfig): TaskPollPolicy;
  submit(operation: TaskOperation, request: TaskRequest, attempt: TaskSubmitAttempt): Promise<TaskSubmission>;
  poll(target: TaskTarget, context: TaskPollContext): Promise<TaskObservation>;
  /** Polls several tasks in one upstream call; the map is keyed by upstream id (a missing one was not seen). */
  pollMany?(targets: TaskTarget[], context: TaskPollContext): Promise<Map<string, TaskObservation>>;
  cancel?(target: TaskTarget, context: TaskPollContext): Promise<void>;
  /** Verifies an upstream callback's signature (providers whose vendor signs them). */
  verifyCallback?(channel: ChannelConfig, headers: Record<string, string | string[] | undefined>, body: Buffer): boolean;
}

/**
 * A provider as channels use it. The registry assembles it (`create-provider.ts`): name,
 * operations, dialect and `simulated` from the descriptor, the operation parts from its factory.
 */
export interface Provider extends Omit<ProviderParts, 'tasks'> {
  readonly tasks?: TaskProvider;
  readonly name: ProviderName;
  /** The dialect this provider speaks natively, if it is one of the client dialects. */
  readonly dialect?: Dialect;
  /** Further client dialects it relays untranslated (OpenAI itself: the Responses API). */
  readonly alsoRelays?: readonly Dialect[];
  readonly operations: ReadonlySet<Operation>;
  /** True for providers that simulate (every answer must say so). */
  readonly simulated?: boolean;
}

/** What a descriptor's factory makes: the parts for the operations the descriptor declares. */
export interface ProviderParts {
  readonly chat?: ChatProvider;
  readonly embed?: EmbedProvider;
  readonly images?: ImageProvider;
  /** Without `pollPolicy` when the descriptor gives `taskPolling`. */
  readonly tasks?: TaskParts;
}

/**
 * A factory's task part: a `TaskProvider` whose `pollPolicy` may come from the descriptor's
 * `taskPolling`, and whose `operations`, when absent, are all the descriptor's operations.
 */
export type TaskParts = Omit<TaskProvider, 'pollPolicy' | 'operations'> & Partial<Pick<TaskProvider, 'pollPolicy' | 'operations'>>;

/**
 * A channel created from environment variables alone: `<keyVar>` set adds a channel named
 * `<provider>-env` serving the family's public ids and the upstream's own model names.
 */
export interface EnvPreset {
  /** Variable holding the upstream credential; the channel exists only when it is set. */
  keyVar: string;
  /** Variable overriding the default base URL. */
  baseVar: string;
  /** Variable replacing `rewrite` with `from=to` pairs separated by commas. */
  rewriteVar: string;
  /** Prefix rewrites from the spec's public ids to upstream names (`textmodel-b-` → `gpt-`). */
  rewrite: Array<{ from: string; to: string }>;
  /** Exact public id → upstream name, for families whose names do not follow a prefix. */
  modelMap: Record<string, string>;
  /** Upstream model names (patterns) served as they are. */
  extraModels: string[];
}

/**
 * A channel option a provider declares: config validation (`validateChannel`, for the file, the
 * admin API and stored channels alike) checks its value's type, and `secret` ones are kept like
 * the channel's key (sealed at rest, only a hint shown by the admin API). Options a descriptor
 * does not declare are passed to the provider as they are.
 */
export interface ChannelOptionSpec {
  readonly type: 'string' | 'integer' | 'boolean';
  /** For strings: the whole value must match. */
  readonly pattern?: RegExp;
  /** What a right value is, for the error (`must be <expected>`). */
  readonly expected: string;
  readonly secret?: boolean;
}

/**
 * Everything the gateway knows about one provider kind. Each provider folder exports its
 * descriptor; `registry.ts` lists them, and config validation, environment presets and
 * default base URLs are derived from that list.
 */
export interface ProviderDescriptor {
  readonly name: ProviderName;
  /**
   * Creates the provider's parts; one instance serves every channel of this kind. An upstream
   * adapter's factory loads its modules with `import()`, so that reading a descriptor (config
   * validation, the short CLI commands) loads only the descriptor's data. A provider that needs
   * gateway settings (the sandbox) is built at the composition root instead, and this makes it
   * with its defaults.
   */
  readonly factory: () => ProviderParts | Promise<ProviderParts>;
  /** The operations the provider implements (its `Provider.operations`). */
  readonly operations: readonly Operation[];
  /** The client dialect the provider speaks natively, enabling pass-through. */
  readonly dialect?: Dialect;
  /** Further client dialects its `passthrough` relays (read from `RawChatRequest.dialect`). */
  readonly alsoRelays?: readonly Dialect[];
  /** Base URL used when a channel gives none; absent when the channel must give one. */
  readonly defaultBaseUrl?: string;
  /** True for providers that reach no upstream (no base URL, answers say they are simulated). */
  readonly simulated?: boolean;
  /** How a channel is made from environment variables, for providers that offer it. */
  readonly envPreset?: EnvPreset;
  /** How the provider's tasks are polled, for a task part that brings no `pollPolicy` of its own. */
  readonly taskPolling?: TaskPolling;
  /** The channel options it declares (checked by config validation; `secret` ones sealed). */
  readonly channelOptions?: Readonly<Record<string, ChannelOptionSpec>>;
}
