/**
 * The three parts of the Responses surface and what they hand each other: the parser (client
 * JSON → canonical request + this turn's items), the renderer (canonical answer or stream →
 * Responses object / SSE events with the output items) and the routes (state, storage, calls),
 * which join them.
 */
import type { ChatEvent, ChatRequest, ChatResponse } from '../../core/chat.js';
import type { ResponseItem, SealedReasoning } from '../../core/responses.js';

/** What the routes read before anything else (cheap, no translation). */
export interface PeekedResponsesRequest {
  model: string;
  stream: boolean;
  /** `store`, default true. */
  store: boolean;
  background: boolean;
  previousResponseId?: string;
}

export interface ParseContext {
  /** The conversation `previous_response_id` continues (empty without one), oldest first. */
  history: readonly ResponseItem[];
  /**
   * The account's stored items an `item_reference` of this input names outside the history and
   * the input itself, by id (looked up by the routes before parsing); absent ones are unknown.
   */
  storedItems?: ReadonlyMap<string, ResponseItem>;
  /** Opens a reasoning item's `encrypted_content` the gateway sealed; undefined for anything else. */
  openReasoning(encryptedContent: string): SealedReasoning | undefined;
}

/** The request fields a response object echoes (`instructions`, `tools`, `tool_choice`, `text`, `reasoning`, …), in OpenAI's shape. */
export type ResponsesEcho = Record<string, unknown>;

export interface ParsedResponsesRequest {
  /** History then this turn, `instructions` as the system prompt. */
  canonical: ChatRequest;
  /** This turn's input items in wire shape, each with an id (`msg_…`, `fc_…`, …): stored, and listed by `input_items`. */
  inputItems: ResponseItem[];
  echo: ResponsesEcho;
  /** `include` values, e.g. `reasoning.encrypted_content`. */
  include: string[];
  /** `stream_options.include_obfuscation` (default true, as OpenAI's). */
  includeObfuscation: boolean;
  /** What the translation left out (hosted tools), for `x-gengate-warnings`. */
  warnings: string[];
  /** Canonical tool names that stand for a function of a `namespace` tool. */
  toolNamespaces: ReadonlyMap<string, { namespace: string; name: string }>;
}

/** Throws GatewayError `invalid_request` naming the parameter (OpenAI's `param`), never anything else. */
export type ParseResponsesRequest = (body: unknown, context: ParseContext) => ParsedResponsesRequest;

export interface RenderContext {
  /** `resp_…`, the gateway's. */
  responseId: string;
  /** Unix seconds. */
  createdAt: number;
  /** The public model id. */
  model: string;
  echo: ResponsesEcho;
  previousResponseId?: string;
  /** The provider kind that answered (RouteInfo.provider): recorded in sealed reasoning. */
  provider: string;
  sealReasoning(reasoning: SealedReasoning): string;
  include: readonly string[];
  includeObfuscation: boolean;
  /** Canonical tool names that stand for a function of a `namespace` tool (from the parser). */
  toolNamespaces?: ReadonlyMap<string, { namespace: string; name: string }>;
}

/** A response object in full (reasoning with its sealed `encrypted_content`) and its output items. */
export interface RenderedResponse {
  object: Record<string, unknown>;
  outputItems: ResponseItem[];
}

export type RenderResponse = (response: ChatResponse, context: RenderContext) => RenderedResponse;

/**
 * The SSE frames of a streamed response, `sequence_number` from 0. `beforeTerminal` gets the
 * response in full and is awaited before the terminal event (`response.completed`,
 * `.incomplete` or `.failed`) is yielded, so the stored state exists before the client sees the end.
 * Frames carry `encrypted_content` only when `include` asks for it.
 */
export type RenderResponsesStream = (
  events: AsyncIterable<ChatEvent>,
  context: RenderContext,
  beforeTerminal: (rendered: RenderedResponse) => Promise<void>,
) => AsyncIterable<string>;
