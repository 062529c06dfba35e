/**
 * What a surface gets from the gateway: authentication, the chat operation and the model
 * list. Surfaces parse their dialect into the canonical form, call these, and render the
 * outcome in their dialect. They never see providers or channels.
 */
import type { FastifyInstance } from 'fastify';
import type { ChatEvent, ChatRequest, ChatResponse } from '../core/chat.js';
import type { EmbedRequest, EmbedResponse } from '../core/embed.js';
import type {
  DeliveredImages,
  ImageBlendRequest,
  ImageEditRequest,
  ImageGenerateRequest,
  ImageInput,
  ImageRemixRequest,
} from '../core/image.js';
import type { ImageLimits } from '../core/image-bytes.js';
import type { GatewayError } from '../core/errors.js';
import type { Operation } from '../core/operation.js';
import type { PassthroughResponse, ProviderName, RawChatRequest } from '../providers/types.js';

export type SurfaceName = 'openai' | 'anthropic' | 'gemini' | 'imagegen2';

export interface AuthenticatedKey {
  id: string;
  name: string;
  /** Model id patterns the key may use (`*` wildcards); null means any model. */
  models: string[] | null;
  isMaster: boolean;
}

export interface ChatCall {
  key: AuthenticatedKey;
  surface: SurfaceName;
  requestId: string;
  request: ChatRequest;
  /** The untranslated request, used when the chosen channel speaks the surface's dialect. */
  raw?: RawChatRequest;
  /** Aborted when the client disconnects. */
  signal: AbortSignal;
}

/** Which channel answered; surfaces put it in response headers. */
export interface RouteInfo {
  channel: string;
  provider: ProviderName;
  /** True when the sandbox answered: the answer is simulated. */
  simulated: boolean;
  upstreamModel: string;
  attempts: number;
  /** True when the upstream's bytes are relayed untranslated (same dialect on both sides). */
  passthrough: boolean;
}

export type ChatOutcome =
  | { kind: 'response'; response: ChatResponse; route: RouteInfo }
  | { kind: 'stream'; events: AsyncIterable<ChatEvent>; route: RouteInfo }
  | { kind: 'passthrough'; response: PassthroughResponse; route: RouteInfo };

export interface ModelInfo {
  id: string;
  operation: Operation;
  /** Who makes the model (`anthropic`, `openai`, `google`, `gengate`), for list responses. */
  ownedBy: string;
  created: number;
  displayName: string;
  /** Input/output token limits when known (Gemini's list shows them). */
  inputTokenLimit?: number;
  outputTokenLimit?: number;
}

export interface EmbedCall {
  key: AuthenticatedKey;
  surface: SurfaceName;
  requestId: string;
  request: EmbedRequest;
  signal: AbortSignal;
}

export interface EmbedOutcome {
  /** Vectors in input order; `model` is the public id. */
  response: EmbedResponse;
  route: RouteInfo;
}

export type ImageCall = {
  key: AuthenticatedKey;
  surface: SurfaceName;
  requestId: string;
  signal: AbortSignal;
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

export interface GatewayServices {
  /** Resolves the key the client presented; throws GatewayError `authentication`. */
  authenticate(presented: string | undefined): Promise<AuthenticatedKey>;
  /**
   * Runs a chat call: checks the key may use the model, routes, fails over. Throws a
   * GatewayError when no channel could answer before the first byte.
   */
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
  /** Size and pixel caps for client images, checked from their headers when a surface takes them in. */
  imageLimits: ImageLimits;
}

/** A surface: registers its routes (in its own encapsulated plugin, with its own error rendering). */
export interface Surface {
  name: SurfaceName;
  register(app: FastifyInstance, services: GatewayServices): Promise<void> | void;
}

/** How a surface renders an error: status, body and extra headers. */
export interface RenderedError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type ErrorRenderer = (error: GatewayError, requestId: string) => RenderedError;
