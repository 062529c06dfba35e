/**
 * The OpenAI Chat Completions wire shapes the gateway reads and writes (the subset it uses).
 * Shared by the `openai` surface and the `openai` / `openai-compatible` providers.
 */

export type OpenAIFinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'function_call';

export interface OpenAITextPart {
  type: 'text';
  text: string;
}

interface OpenAIImageUrlPart {
  type: 'image_url';
  image_url: { url: string; detail?: string };
}

interface OpenAIFilePart {
  type: 'file';
  file: { filename?: string; file_data?: string; file_id?: string };
}

export type OpenAIUserContentPart = OpenAITextPart | OpenAIImageUrlPart | OpenAIFilePart;

export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type OpenAIMessage =
  | { role: 'system' | 'developer'; content: string | OpenAITextPart[]; name?: string }
  | { role: 'user'; content: string | OpenAIUserContentPart[]; name?: string }
  | { role: 'assistant'; content: string | OpenAITextPart[] | null; tool_calls?: OpenAIToolCall[]; name?: string }
  | { role: 'tool'; tool_call_id: string; content: string | OpenAITextPart[] };

interface OpenAIToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

export type OpenAIToolChoice = 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } };

export type OpenAIResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; json_schema: { name: string; schema?: Record<string, unknown>; strict?: boolean; description?: string } };

export interface OpenAIChatRequestBody {
  model: string;
  messages: OpenAIMessage[];
  temperature?: number;
  top_p?: number;
  stop?: string[];
  max_tokens?: number;
  max_completion_tokens?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  seed?: number;
  user?: string;
  response_format?: OpenAIResponseFormat;
  tools?: OpenAIToolDefinition[];
  tool_choice?: OpenAIToolChoice;
  parallel_tool_calls?: boolean;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
}

export interface OpenAIUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number | null; audio_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null; [key: string]: number | null | undefined } | null;
}

export interface OpenAIChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: {
      role: 'assistant';
      content: string | null;
      refusal: string | null;
      tool_calls?: OpenAIToolCall[];
      /** Reasoning text some OpenAI-compatible servers add (DeepSeek, vLLM). */
      reasoning_content?: string | null;
      reasoning?: string | null;
      /** gengate's (and LiteLLM's) signed thinking, for the client to send back unchanged (docs/reasoning.md). */
      thinking_blocks?: OpenAIThinkingBlock[];
    };
    logprobs: null;
    finish_reason: OpenAIFinishReason | null;
  }>;
  usage?: OpenAIUsage;
}

/** A streamed tool-call fragment: the first one carries id and name, later ones argument pieces. */
export interface OpenAIToolCallDelta {
  index?: number;
  id?: string;
  type?: 'function';
  function?: { name?: string; arguments?: string };
}

/** A signed (or redacted) thinking block on an assistant message: the shape LiteLLM uses, which clients echo back. */
export type OpenAIThinkingBlock = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

export interface OpenAIChunkDelta {
  role?: 'assistant';
  content?: string | null;
  refusal?: string | null;
  tool_calls?: OpenAIToolCallDelta[];
  reasoning_content?: string | null;
  reasoning?: string | null;
  thinking_blocks?: OpenAIThinkingBlock[];
}

export interface OpenAIChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{ index: number; delta: OpenAIChunkDelta; logprobs: null; finish_reason: OpenAIFinishReason | null }>;
  usage?: OpenAIUsage | null;
}

export interface OpenAIErrorObject {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
}

export interface OpenAIErrorBody {
  error: OpenAIErrorObject;
}
