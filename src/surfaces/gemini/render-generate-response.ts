/** Canonical ChatResponse → Gemini GenerateContentResponse (always camelCase). */
import type { ChatResponse } from '../../core/chat.js';
import type { GeminiGenerateContentResponse, GeminiPart } from '../../core/wire/gemini-types.js';
import { toGeminiUsage } from '../../core/wire/gemini-usage.js';
import { toGeminiFinishReason } from './to-gemini-finish-reason.js';
import { toolCallArgs } from './tool-call-args.js';

export function renderGeminiGenerateResponse(response: ChatResponse): GeminiGenerateContentResponse {
  const parts: GeminiPart[] = [];
  for (const part of response.content) {
    if (part.type === 'text') parts.push({ text: part.text });
    else if (part.type === 'tool_call') parts.push({ functionCall: { id: part.id, name: part.name, args: toolCallArgs(part.arguments) } });
    // The signature rides in Gemini's own thoughtSignature, which clients send back unchanged (docs/reasoning.md).
    else if (part.type === 'thinking' && part.signature) parts.push({ text: part.text, thought: true, thoughtSignature: part.signature });
    else if (part.type === 'thinking' && part.text.length > 0) parts.push({ text: part.text, thought: true });
  }
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: toGeminiFinishReason(response.finishReason), index: 0 }],
    usageMetadata: toGeminiUsage(response.usage),
    modelVersion: response.model,
    responseId: response.id,
  };
}
