/** Gemini GenerateContentResponse → canonical ChatResponse (further candidates as further choices). */
import type { ChatChoice, ChatResponse, TextPart, ThinkingPart, ToolCallPart } from '../../core/chat.js';
import { nowSeconds, prefixedId } from '../../core/ids.js';
import type { GeminiCandidate, GeminiGenerateContentResponse } from '../../core/wire/gemini-types.js';
import { fromGeminiUsage } from '../../core/wire/gemini-usage.js';
import { geminiToolCallId } from './gemini-tool-call-id.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

export function fromGeminiResponse(body: GeminiGenerateContentResponse, model: string): ChatResponse {
  const candidates = body.candidates ?? [];
  const first: ChatChoice = candidates[0]
    ? fromCandidate(candidates[0])
    : { content: [], finishReason: body.promptFeedback?.blockReason ? 'content_filter' : 'other' };
  const response: ChatResponse = {
    id: body.responseId || prefixedId('gen_'),
    model,
    created: nowSeconds(),
    content: first.content,
    finishReason: first.finishReason,
    usage: fromGeminiUsage(body.usageMetadata ?? {}),
  };
  if (candidates.length > 1) response.otherChoices = candidates.slice(1).map(fromCandidate);
  return response;
}

function fromCandidate(candidate: GeminiCandidate): ChatChoice {
  const content: Array<TextPart | ThinkingPart | ToolCallPart> = [];
  let hasToolCalls = false;
  for (const part of candidate.content?.parts ?? []) {
    if (part.functionCall) {
      hasToolCalls = true;
      content.push({
        type: 'tool_call',
        id: geminiToolCallId(part.functionCall.id),
        name: part.functionCall.name,
        arguments: JSON.stringify(part.functionCall.args ?? {}),
      });
    } else if (typeof part.text === 'string') {
      if (part.thought) {
        content.push(part.thoughtSignature ? { type: 'thinking', text: part.text, signature: part.thoughtSignature } : { type: 'thinking', text: part.text });
        continue;
      }
      if (part.text.length === 0) continue;
      const last = content[content.length - 1];
      if (last?.type === 'text') last.text += part.text;
      else content.push({ type: 'text', text: part.text });
    }
  }
  return { content, finishReason: mapGeminiFinishReason(candidate.finishReason, hasToolCalls) };
}
