/**
 * The canonical chat operation: what every chat surface parses into and every provider
 * consumes, independent of dialect.
 */
import type { Usage } from './usage.js';

export interface CacheControl {
  type: 'ephemeral';
  ttl?: string;
}

export type MediaSource =
  | { kind: 'base64'; mediaType: string; data: string }
  | { kind: 'url'; url: string; mediaType?: string }
  | { kind: 'text'; text: string; mediaType?: string };

export interface TextPart {
  type: 'text';
  text: string;
  cacheControl?: CacheControl;
}

export interface ImagePart {
  type: 'image';
  source: MediaSource;
  /** OpenAI's `detail` hint; kept for OpenAI upstreams. */
  detail?: string;
  cacheControl?: CacheControl;
}

export interface DocumentPart {
  type: 'document';
  source: MediaSource;
  title?: string;
  filename?: string;
  context?: string;
  cacheControl?: CacheControl;
}

/** A call the model made (assistant turns). `arguments` is a JSON-encoded object. */
export interface ToolCallPart {
  type: 'tool_call';
  id: string;
  name: string;
  arguments: string;
}

/** The result of a tool call (tool turns). */
export interface ToolResultPart {
  type: 'tool_result';
  toolCallId: string;
  /** The tool's name; needed by dialects that match results by name (Gemini). */
  name?: string;
  content: string | Array<TextPart | ImagePart>;
  isError?: boolean;
}

export interface ThinkingPart {
  type: 'thinking';
  text: string;
  signature?: string;
  /** Opaque, encrypted thinking (Anthropic `redacted_thinking`). */
  redacted?: string;
  /**
   * The provider kind that signed it (`anthropic`, `gemini`, …), when known (reasoning the
   * Responses surface carried across turns): another vendor cannot verify it and leaves it out.
   */
  origin?: string;
}

export type ContentPart = TextPart | ImagePart | DocumentPart | ToolCallPart | ToolResultPart | ThinkingPart;

/**
 * `user` turns hold text, images and documents; `assistant` turns text, thinking and tool
 * calls; `tool` turns hold only tool results. Consecutive turns of one role may occur.
 */
export interface ChatMessage {
  role: 'user' | 'assistant' | 'tool';
  content: ContentPart[];
  /** OpenAI's optional participant name. */
  name?: string;
}

export interface ToolDefinition {
  name: string;
  description?: string;
  /** A JSON Schema object describing the arguments. */
  parameters: Record<string, unknown>;
  strict?: boolean;
}

export type ToolChoice = { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; name: string };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name?: string; schema: Record<string, unknown>; strict?: boolean };

export interface ChatRequest {
  /** The public model id the client asked for. */
  model: string;
  system?: TextPart[];
  messages: ChatMessage[];
  maxTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stop?: string[];
  tools?: ToolDefinition[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  responseFormat?: ResponseFormat;
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  /** An end-user id for abuse tracking (OpenAI `user`, Anthropic `metadata.user_id`). */
  user?: string;
  /** How many choices the client wants (OpenAI `n`); set only when above 1. */
  n?: number;
  /** OpenAI `logprobs` / `top_logprobs`: the client wants token log probabilities. */
  logprobs?: boolean;
  topLogprobs?: number;
  /** Extended thinking budget in tokens, when the client asked for it. */
  thinkingBudget?: number;
  stream: boolean;
  /** OpenAI `stream_options.include_usage`: the client wants a final usage chunk. */
  includeUsage?: boolean;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'stop_sequence' | 'content_filter' | 'refusal' | 'pause' | 'error' | 'other';

export interface ChatResponse {
  id: string;
  /** The public model id (surfaces echo what the client asked for). */
  model: string;
  /** Unix seconds. */
  created: number;
  content: Array<TextPart | ToolCallPart | ThinkingPart>;
  finishReason: FinishReason;
  /** The stop sequence that ended generation, when known. */
  stopSequence?: string | null;
  /** Choices after the first, when the client asked for several (`n`); usage covers all. */
  otherChoices?: ChatChoice[];
  usage: Usage;
}

export interface ChatChoice {
  content: Array<TextPart | ToolCallPart | ThinkingPart>;
  finishReason: FinishReason;
  stopSequence?: string | null;
}

/**
 * The canonical chat stream. Order: `start`, then any number of deltas, then `finish`
 * (or `error`). Tool calls: `tool_call_start` then `tool_call_delta`s for the same
 * `index`; text after a tool call starts a new text block.
 */
export type ChatEvent =
  | { type: 'start'; id: string; model: string; created: number; usage?: Partial<Usage> }
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; text: string; signature?: string }
  | { type: 'tool_call_start'; index: number; id: string; name: string }
  | { type: 'tool_call_delta'; index: number; argumentsDelta: string }
  | { type: 'usage'; usage: Partial<Usage> }
  | { type: 'finish'; finishReason: FinishReason; stopSequence?: string | null; usage: Usage }
  | { type: 'error'; error: import('./errors.js').GatewayError };
