/**
 * What a surface gets from the gateway: authentication, the chat operation and the model
 * list. Surfaces parse their dialect into the canonical form, call these, and render the
 * outcome in their dialect. They never see providers or channels.
 */
import type { FastifyInstance } from 'fastify';
import type { ChatEvent, ChatRequest, ChatResponse } from '../core/chat.js';
import type { GatewayError } from '../core/errors.js';
import type { Operation } from '../core/operation.js';
import type { PassthroughResponse, ProviderName, RawChatRequest } from '../providers/types.js';

export type SurfaceName = 'openai' | 'anthropic' | 'gemini';

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
