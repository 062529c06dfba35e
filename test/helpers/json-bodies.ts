/**
 * The JSON bodies the end-to-end tests read, typed as far as the tests read them. They are
 * cast onto parsed JSON, so they check nothing at run time: the assertions do.
 */

/** An error body in the OpenAI, Anthropic or Gemini dialect (imagegen2 answers `{ detail }`). */
export interface ErrorBody {
  /** Anthropic: `'error'`. */
  type?: string;
  /** Anthropic. */
  request_id?: string;
  error: {
    message: string;
    /** OpenAI and Anthropic. */
    type?: string;
    /** OpenAI: a string or null; Gemini: the HTTP status. */
    code?: string | number | null;
    /** OpenAI. */
    param?: string | null;
    /** Gemini: the status name, e.g. `INVALID_ARGUMENT`. */
    status?: string;
  };
}

/** A Gemini `generateContent` answer, or one frame of a streamed one. */
export interface GeminiAnswer {
  candidates: Array<{ content: { role?: string; parts: Array<{ text: string }> } }>;
  usageMetadata: { promptTokenCount: number };
}

/** An Anthropic Messages answer: only its usage is read. */
export interface AnthropicAnswer {
  usage: { input_tokens: number; output_tokens: number; cache_creation_input_tokens?: number; cache_read_input_tokens?: number };
}

/** An OpenAI chat request as an upstream received it. */
export interface OpenAIChatBody {
  model: string;
  messages: Array<{ role: string; content: string | unknown[] }>;
  max_completion_tokens?: number;
  stop?: string | string[];
}

/** An Anthropic Messages request as an upstream received it. */
export interface AnthropicMessagesBody {
  model: string;
  system?: string | unknown[];
  messages: Array<{ role: string; content: string | unknown[] }>;
  max_tokens: number;
  stop_sequences?: string[];
}

/** A Gemini `generateContent` request as an upstream received it. */
export interface GeminiContentBody {
  contents: Array<{ role?: string; parts: unknown[] }>;
  systemInstruction?: { parts: unknown[] };
  generationConfig?: { maxOutputTokens?: number };
}
