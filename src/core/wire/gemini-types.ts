/**
 * Gemini `generateContent` wire shapes as the API emits them (camelCase). Input may also
 * arrive in snake_case (proto3 JSON); surfaces normalise that while parsing.
 */

interface GeminiInlineData {
  mimeType: string;
  data: string;
}

interface GeminiFileData {
  mimeType?: string;
  fileUri: string;
}

interface GeminiFunctionCall {
  id?: string;
  name: string;
  args?: Record<string, unknown>;
}

interface GeminiFunctionResponse {
  id?: string;
  name: string;
  response: Record<string, unknown>;
}

export interface GeminiPart {
  text?: string;
  /** True on thought-summary text parts. */
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: GeminiInlineData;
  fileData?: GeminiFileData;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
}

export interface GeminiContent {
  role?: 'user' | 'model';
  parts?: GeminiPart[];
}

export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  /** Gemini's OpenAPI-subset schema (upper-case types). */
  parameters?: Record<string, unknown>;
  /** A full JSON Schema. */
  parametersJsonSchema?: Record<string, unknown>;
}

interface GeminiTool {
  functionDeclarations?: GeminiFunctionDeclaration[];
}

type GeminiFunctionCallingMode = 'AUTO' | 'ANY' | 'NONE' | 'VALIDATED' | 'MODE_UNSPECIFIED';

export interface GeminiToolConfig {
  functionCallingConfig?: {
    mode?: GeminiFunctionCallingMode;
    allowedFunctionNames?: string[];
  };
}

interface GeminiThinkingConfig {
  thinkingBudget?: number;
  includeThoughts?: boolean;
}

export interface GeminiGenerationConfig {
  temperature?: number;
  topP?: number;
  topK?: number;
  candidateCount?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseMimeType?: string;
  responseSchema?: Record<string, unknown>;
  responseJsonSchema?: Record<string, unknown>;
  thinkingConfig?: GeminiThinkingConfig;
}

export interface GeminiGenerateContentRequest {
  /** `models/<id>`; optional in the body because the model is in the URL. */
  model?: string;
  contents: GeminiContent[];
  systemInstruction?: GeminiContent;
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  generationConfig?: GeminiGenerationConfig;
  safetySettings?: unknown[];
  cachedContent?: string;
}

export interface GeminiUsageMetadata {
  /** All prompt tokens, cached ones included. */
  promptTokenCount?: number;
  /** Response tokens, thoughts excluded. */
  candidatesTokenCount?: number;
  totalTokenCount?: number;
  cachedContentTokenCount?: number;
  thoughtsTokenCount?: number;
  /** Tokens of tool-use prompts (e.g. search results), billed as input. */
  toolUsePromptTokenCount?: number;
}

export type GeminiFinishReason =
  | 'FINISH_REASON_UNSPECIFIED'
  | 'STOP'
  | 'MAX_TOKENS'
  | 'SAFETY'
  | 'RECITATION'
  | 'LANGUAGE'
  | 'OTHER'
  | 'BLOCKLIST'
  | 'PROHIBITED_CONTENT'
  | 'SPII'
  | 'MALFORMED_FUNCTION_CALL'
  | 'IMAGE_SAFETY'
  | 'UNEXPECTED_TOOL_CALL'
  | 'TOO_MANY_TOOL_CALLS';

export interface GeminiCandidate {
  content?: GeminiContent;
  finishReason?: GeminiFinishReason | string;
  index?: number;
}

export interface GeminiGenerateContentResponse {
  candidates?: GeminiCandidate[];
  promptFeedback?: { blockReason?: string };
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
}

export interface GeminiErrorBody {
  error: {
    code: number;
    message: string;
    status: string;
    details?: unknown[];
  };
}
