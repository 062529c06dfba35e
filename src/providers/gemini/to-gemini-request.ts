/**
 * Canonical ChatRequest → Gemini `generateContent` body. Schemas (tool parameters and the
 * response schema) go out as full JSON Schema (`parametersJsonSchema`, `responseJsonSchema`),
 * or, for models that predate it (Gemini 1.x and 2.0) and channels with
 * `options.schemaDialect: openapi`, converted to the OpenAPI subset (`parameters`,
 * `responseSchema`).
 */
import type { ChatRequest, ToolChoice, ToolDefinition } from '../../core/chat.js';
import type { GeminiFunctionDeclaration, GeminiGenerateContentRequest, GeminiGenerationConfig, GeminiToolConfig } from '../../core/wire/gemini-types.js';
import { withoutForeignThinking } from '../shared/drop-foreign-thinking.js';
import { hasCacheBreakpoints } from '../shared/cache-breakpoints.js';
import { formatInstruction, instructionFallbackWarning, jsonResponseFormat, nativeStructuredOutput } from '../shared/structured-output.js';
import type { Attempt } from '../types.js';
import { toGeminiContents } from './to-gemini-contents.js';
import { toGeminiSchema } from './to-gemini-schema.js';

type Warn = (message: string) => void;

/** Whether this attempt's schemas must use the OpenAPI subset rather than JSON Schema. */
export function usesOpenApiSchema(attempt: Attempt): boolean {
  const option = attempt.channel.options.schemaDialect;
  if (option === 'openapi') return true;
  if (option === 'json-schema') return false;
  return /^(models\/)?gemini-(1\.|2\.0)/.test(attempt.upstreamModel);
}

export function toGeminiRequest(request: ChatRequest, attempt: Attempt): GeminiGenerateContentRequest {
  const warn: Warn = (message) => attempt.warn?.(message);
  const openApi = usesOpenApiSchema(attempt);
  const body: GeminiGenerateContentRequest = { contents: toGeminiContents(withoutForeignThinking(request.messages, attempt.channel.provider, warn)) };
  const system = (request.system ?? []).filter((part) => part.text.length > 0).map((part) => ({ text: part.text }));
  const format = jsonResponseFormat(request.responseFormat);
  const native = nativeStructuredOutput(attempt.channel);
  if (format && !native) {
    warn(instructionFallbackWarning(attempt.channel));
    system.push({ text: formatInstruction(format) });
  }
  if (system.length > 0) body.systemInstruction = { parts: system };
  if (request.tools && request.tools.length > 0) {
    body.tools = [{ functionDeclarations: request.tools.map((tool) => toFunctionDeclaration(tool, openApi, warn)) }];
    if (request.toolChoice) body.toolConfig = toToolConfig(request.toolChoice);
    if (request.parallelToolCalls === false) warn('parallel_tool_calls: Gemini cannot turn parallel calls off, dropped');
    if (request.tools.some((tool) => tool.strict !== undefined)) warn('tools.strict: not sent to Gemini, dropped');
  }
  if (request.user !== undefined) warn('user: not supported by Gemini, dropped');
  if (hasCacheBreakpoints(request)) warn('cache_control: Gemini caches prompts implicitly, breakpoints dropped');
  const config = toGenerationConfig(request);
  if (format && native) {
    config.responseMimeType = 'application/json';
    if (format.type === 'json_schema') {
      if (openApi) config.responseSchema = toGeminiSchema(format.schema, 'response_format.schema', warn);
      else config.responseJsonSchema = format.schema;
    }
  }
  if (Object.keys(config).length > 0) body.generationConfig = config;
  return body;
}

function toFunctionDeclaration(tool: ToolDefinition, openApi: boolean, warn: Warn): GeminiFunctionDeclaration {
  const declaration: GeminiFunctionDeclaration = { name: tool.name };
  if (tool.description !== undefined) declaration.description = tool.description;
  if (openApi) declaration.parameters = toGeminiSchema(tool.parameters, `tools.${tool.name}.parameters`, warn);
  else declaration.parametersJsonSchema = tool.parameters;
  return declaration;
}

function toToolConfig(choice: ToolChoice): GeminiToolConfig {
  switch (choice.type) {
    case 'auto':
      return { functionCallingConfig: { mode: 'AUTO' } };
    case 'none':
      return { functionCallingConfig: { mode: 'NONE' } };
    case 'required':
      return { functionCallingConfig: { mode: 'ANY' } };
    case 'tool':
      return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
  }
}

function toGenerationConfig(request: ChatRequest): GeminiGenerationConfig {
  const config: GeminiGenerationConfig = {};
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.topK !== undefined) config.topK = request.topK;
  if (request.maxTokens !== undefined) config.maxOutputTokens = request.maxTokens;
  if (request.stop && request.stop.length > 0) config.stopSequences = request.stop;
  if (request.seed !== undefined) config.seed = request.seed;
  if (request.presencePenalty !== undefined) config.presencePenalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) config.frequencyPenalty = request.frequencyPenalty;
  if (request.thinkingBudget !== undefined) {
    // A client that asks for a thinking budget wants to see the thoughts too.
    config.thinkingConfig = request.thinkingBudget > 0 ? { thinkingBudget: request.thinkingBudget, includeThoughts: true } : { thinkingBudget: 0 };
  }
  return config;
}
