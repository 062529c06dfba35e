/**
 * The service contract between the surfaces and the gateway: what a surface may ask once it
 * has parsed a request in its dialect, and what it gets back to render. Surfaces depend on
 * this and on `core/`; they never see providers, channels or the store.
 */
import type { ChatEvent, ChatRequest, ChatResponse } from '../core/chat.js';
import type { EmbedRequest, EmbedResponse } from '../core/embed.js';
import type { DeliveredImages, ImageBlendRequest, ImageEditRequest, ImageGenerateRequest, ImageInput, ImageRemixRequest } from '../core/image.js';
import type { ImageLimits } from '../core/image-bytes.js';
import type { AuthenticatedKey } from '../core/key.js';
import type { ModelInfo } from '../core/model-info.js';
import type { Operation } from '../core/operation.js';
import type { PassthroughResponse, RawChatRequest } from '../core/passthrough.js';
import type { PeekedDocument } from '../core/peeked-chat-request.js';
import type { RequestRecord } from '../core/request-record.js';
import type { ResponseItem, SealedReasoning, StoredResponse, StoredResponseStatus } from '../core/responses.js';
import type { RouteInfo } from '../core/route.js';
import type { MediaRef, Task, TaskOperation, TaskRequest, TaskSurface } from '../core/task.js';
import type { ByteRange, StoredMedia } from '../media/media-store.js';

/**
 * A surface's name in the surface registry (`surfaces/registry.ts`), or `playground`: the
 * dashboard's chat playground (admin API), billed to the signed-in account.
 */
export type SurfaceName = string;

/** Who asks, through which surface, for which request; common to every call. */
export interface CallOrigin {
  key: AuthenticatedKey;
  surface: SurfaceName;
  requestId: string;
  /** Aborted when the client disconnects (or the gateway drains past its deadline). */
  signal: AbortSignal;
  /** The HTTP request the call is made for (absent for a background run): the access log, timing headers and traces read it. */
  http?: RequestRecord;
}

export interface ChatCall extends CallOrigin {
  /** The public model id the client asked for. */
  model: string;
  stream: boolean;
  /**
   * The canonical request. Parsed only when a channel that translates is tried, so that a
   * same-dialect upstream receives the client's native features untouched.
   */
  canonical: () => ChatRequest;
  /** The untranslated request, used when the chosen channel speaks the surface's dialect. */
  raw?: RawChatRequest;
  /** Sizes of inline documents, checked before any attempt (absent: read from the canonical form). */
  documents?: PeekedDocument[];
  /**
   * The byte length of the JSON text the whole canonical request is read from (the request's
   * body), when the surface knows it and the canonical form holds nothing else: it bounds the
   * input tokens without a parse (`routing/request-needs.ts`). Absent: no such bound.
   */
  bodyBytes?: number;
}

export type ChatOutcome =
  | { kind: 'response'; response: ChatResponse; route: RouteInfo }
  | { kind: 'stream'; events: AsyncIterable<ChatEvent>; route: RouteInfo }
  | { kind: 'passthrough'; response: PassthroughResponse; route: RouteInfo };

export interface EmbedCall extends CallOrigin {
  request: EmbedRequest;
}

export interface EmbedOutcome {
  /** Vectors in input order; `model` is the public id. */
  response: EmbedResponse;
  route: RouteInfo;
}

export type ImageCall = CallOrigin & {
  /** Base of the gateway URL the client reached (`http://host:port`), for `url` answers. */
  publicBaseUrl: string;
} & (
    | { operation: 'image.generate'; request: ImageGenerateRequest }
    | { operation: 'image.edit'; request: ImageEditRequest }
    | { operation: 'image.remix'; request: ImageRemixRequest }
    | { operation: 'image.blend'; request: ImageBlendRequest }
  );

export interface ImagesOutcome {
  /** Each image as the client asked: a gateway media URL or base64, with its size. */
  result: DeliveredImages;
  route: RouteInfo;
}

/** A request to start an asynchronous task. */
export interface TaskCall extends CallOrigin {
  surface: TaskSurface;
  operation: TaskOperation;
  request: TaskRequest;
  /** Image actions: the task acted on (the key's own); it runs on the same channel. */
  parentId?: string;
  /** The client's webhook: the gateway itself delivers the task's changes there, signed. */
  callback?: { url: string; state?: string };
  /** Base of the gateway URL the client reached (`http://host:port`), for result links. */
  publicBaseUrl: string;
}

/** The task engine as surfaces see it; every lookup is the key's own (another key's id is unknown). */
export interface TaskServices {
  /**
   * Admits, writes the task, submits it upstream (failover before any upstream accepted) and
   * resolves it once an upstream accepted it; throws when none did (nothing is charged then).
   */
  submit(call: TaskCall): Promise<Task>;
  get(key: AuthenticatedKey, id: string): Promise<Task | undefined>;
  list(key: AuthenticatedKey, ids: readonly string[]): Promise<Task[]>;
  /** Cancels a task not finished yet (refunded once); resolves the task as it now is. */
  cancel(key: AuthenticatedKey, id: string): Promise<Task | undefined>;
  /** Checks a client webhook URL before a task is accepted; throws `invalid_request` naming `param`. */
  checkCallbackUrl(url: string, param: string): void;
  /** The gateway URL of a stored result file. */
  mediaUrl(task: Task, mediaId: string): string;
  /**
   * Opens result file `index` of a finished task (a byte range of it when asked): `expired`
   * once the retention passed, `missing` when the task has no such file.
   */
  openResult(task: Task, index: number, range?: ByteRange): Promise<{ kind: 'found'; media: StoredMedia; ref: MediaRef } | { kind: 'expired' | 'missing' }>;
  /** The key's tasks of one operation, newest first (or oldest with `order: 'asc'`), after the task `after`. */
  page(
    key: AuthenticatedKey,
    query: { operation: TaskOperation; limit: number; after?: string; order: 'asc' | 'desc' },
  ): Promise<{ tasks: Task[]; hasMore: boolean }>;
  /** Deletes a task for its owner (cancelling it first when it still runs) and its result files; false when unknown. */
  remove(key: AuthenticatedKey, id: string): Promise<boolean>;
}

/**
 * The Responses API's stored conversations. Every lookup is the key's account's own: another
 * account's id is unknown. Expired responses are unknown too.
 */
export interface ResponseStateServices {
  get(key: AuthenticatedKey, id: string): Promise<StoredResponse | undefined>;
  /**
   * The conversation a follow-up to `id` continues, oldest first: each earlier turn's input
   * items then its output items, up to and including `id`'s output; undefined when unknown.
   */
  conversation(key: AuthenticatedKey, id: string): Promise<ResponseItem[] | undefined>;
  /**
   * The key's account's stored items of these ids (what an `item_reference` may name beyond the
   * conversation it continues), each from the live response that last stored it; ids unknown,
   * another account's, or only in deleted or expired responses are absent. `ids` come from one
   * request's input (the caller bounds them); too many stored bytes to read is a 400 naming `input`.
   */
  items(key: AuthenticatedKey, ids: readonly string[]): Promise<Map<string, ResponseItem>>;
  /** Throws a 400 naming `store` when the key's account keeps more stored responses than its cap allows. */
  mayStore(key: AuthenticatedKey): Promise<void>;
  /** Writes (or rewrites, by id) a response; resolves once it is durable and visible to every replica. */
  save(key: AuthenticatedKey, response: StoredResponse): Promise<void>;
  /** Deletes the key's account's response; false when unknown. */
  remove(key: AuthenticatedKey, id: string): Promise<boolean>;
  /** Seals reasoning proof into an opaque `encrypted_content` (authenticated encryption with the gateway's secret). */
  seal(reasoning: SealedReasoning): string;
  /** Opens what `seal` made; undefined for anything forged, altered or foreign. */
  open(encryptedContent: string): SealedReasoning | undefined;
}

/** One event of a background response's stream, in OpenAI's shape; its `sequence_number` is set where it is stored. */
export type BackgroundResponseEvent = { type: string } & Record<string, unknown>;

/** One attempt at running a background response, handed to the surface's runner. */
export interface BackgroundResponseJob {
  /** `resp_…`. */
  id: string;
  /** The key that created it, as it was then (its revocation is checked before each attempt). */
  key: AuthenticatedKey;
  /** The client's request body. */
  body: unknown;
  /** Created with `stream: true`. */
  stream: boolean;
  /** This attempt's request id (its usage row): the creating request's, with `.<attempt>` after the first. */
  requestId: string;
  /** 1 for the run started by the create; more when a run cut by a crash is run again. */
  attempt: number;
  /** Set when the run may not call upstream (attempts used up, key revoked): the runner only ends it `failed` with this. */
  refusal?: { code: string; message: string };
  /** Aborted when the response is cancelled, its lease is lost, or the gateway shuts down; the runner then writes nothing. */
  signal: AbortSignal;
  /** Stores a stream event (numbered in order); resolves once queued. */
  emit(event: BackgroundResponseEvent): Promise<void>;
  /**
   * Ends the run with its final object and terminal event, written together; false when it had
   * already ended (cancelled meanwhile) or this process lost it.
   */
  finish(ending: { status: StoredResponseStatus; object: Record<string, unknown>; terminal: BackgroundResponseEvent }): Promise<boolean>;
}

/** A background run as the store keeps it. */
export interface BackgroundResponseRun {
  status: StoredResponseStatus;
  stream: boolean;
  /** The final response object (terminal statuses). */
  finalObject?: Record<string, unknown>;
}

/** A stored stream event: its JSON text already carries `sequence_number`. */
export interface StoredBackgroundEvent {
  sequence: number;
  type: string;
  data: string;
}

/**
 * Background responses (`background: true`) run on the gateway's durable runs: written before the
 * client's answer, leased to one process, run again after a crash, cancellable, their stream
 * events stored for replay. Lookups take an id the surface has already checked is the key's own.
 */
export interface BackgroundResponseServices {
  /** Writes the run (`queued`) durably, then starts it in this process. */
  create(key: AuthenticatedKey, run: { id: string; requestId: string; body: unknown; stream: boolean }): Promise<void>;
  get(id: string): Promise<BackgroundResponseRun | undefined>;
  /** Ends a run not ended yet as `cancelled` (its upstream call aborted); false when it had already ended. */
  cancel(id: string, ending: { object: Record<string, unknown>; terminal: BackgroundResponseEvent }): Promise<boolean>;
  /** The stored events after `after`, then live ones as they are stored, until the terminal one or `signal`. */
  follow(id: string, after: number, signal: AbortSignal): AsyncIterable<StoredBackgroundEvent>;
  /** The surface's runner of one attempt (registered once, before the gateway listens). */
  serve(runner: (job: BackgroundResponseJob) => Promise<void>): void;
}

export interface GatewayServices {
  /** Asynchronous tasks (image tasks, imagegen1, video). */
  readonly tasks: TaskServices;
  /** Background responses of the Responses API, on durable leased runs. */
  readonly background: BackgroundResponseServices;
  /** The Responses API's stored conversations (`previous_response_id`) and sealed reasoning. */
  readonly responses: ResponseStateServices;
  /** Size and pixel caps a surface checks image inputs against before anything decodes them. */
  readonly imageLimits: ImageLimits;
  /** Resolves the key the client presented; throws GatewayError `authentication`. */
  authenticate(presented: string | undefined): Promise<AuthenticatedKey>;
  /**
   * Checks that the key may use the model for the operation and that the model serves it,
   * without calling any upstream (for the gateway's local answers, e.g. token counting).
   */
  checkAccess(key: AuthenticatedKey, model: string, operation: Operation): void;
  /** Runs a chat call through the lifecycle; throws when no channel could answer before the first byte. */
  chat(call: ChatCall): Promise<ChatOutcome>;
  /** The models this key may use, for list endpoints. */
  listModels(key: AuthenticatedKey): ModelInfo[];
  /** Embeds texts; batches larger than an upstream's limit are split and reassembled in order. */
  embed(call: EmbedCall): Promise<EmbedOutcome>;
  /** Runs an image operation and delivers the images (stored in the media store for `url`). */
  images(call: ImageCall): Promise<ImagesOutcome>;
  /**
   * Fetches an image a client gave by URL, with the gateway's guards: http(s) only, private,
   * loopback and link-local targets refused unless configured, redirects re-checked, size and
   * time caps, image content type. Throws `invalid_request` naming `param`.
   */
  fetchImage(url: string, param: string, signal: AbortSignal): Promise<ImageInput>;
}
