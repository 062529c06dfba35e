/**
 * Canonical ChatRequest → Gemini `generateContent` body. Tool schemas go out as
 * `parametersJsonSchema` (full JSON Schema, accepted by the current API) rather than
 * `parameters`, whose OpenAPI subset would force a lossy conversion ($ref, additionalProperties…).
 */
import type { ChatRequest, ToolChoice } from '../../core/chat.js';
import type { GeminiGenerateContentRequest, GeminiGenerationConfig, GeminiToolConfig } from '../../core/wire/gemini-types.js';
import { toGeminiContents } from './to-gemini-contents.js';

export function toGeminiRequest(request: ChatRequest): GeminiGenerateContentRequest {
  const body: GeminiGenerateContentRequest = { contents: toGeminiContents(request.messages) };
  const system = (request.system ?? []).filter((part) => part.text.length > 0);
  if (system.length > 0) body.systemInstruction = { parts: system.map((part) => ({ text: part.text })) };
  if (request.tools && request.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((tool) =>
          tool.description === undefined
            ? { name: tool.name, parametersJsonSchema: tool.parameters }
            : { name: tool.name, description: tool.description, parametersJsonSchema: tool.parameters },
        ),
      },
    ];
    if (request.toolChoice) body.toolConfig = toToolConfig(request.toolChoice);
  }
  const config = toGenerationConfig(request);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  return body;
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
  const format = request.responseFormat;
  if (format?.type === 'json_object') config.responseMimeType = 'application/json';
  if (format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    config.responseJsonSchema = format.schema;
  }
  if (request.thinkingBudget !== undefined) {
    // A client that asks for a thinking budget wants to see the thoughts too.
    config.thinkingConfig = request.thinkingBudget > 0 ? { thinkingBudget: request.thinkingBudget, includeThoughts: true } : { thinkingBudget: 0 };
  }
  return config;
}
