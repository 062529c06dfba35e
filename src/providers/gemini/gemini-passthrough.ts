/**
 * Same-dialect pass-through: the client's GenerateContentRequest goes upstream untouched
 * (the model is in the URL; a body `model` field, when present, is rewritten too) and the
 * answer's bytes are relayed as they come while a tap reads `usageMetadata` from them.
 */
import type { SseEvent } from '../../core/sse.js';
import type { Usage } from '../../core/usage.js';
import type { GeminiGenerateContentResponse } from '../../core/wire/gemini-types.js';
import { fromGeminiUsage } from '../../core/wire/gemini-usage.js';
import { headerValue, readErrorText, sendUpstream, relayContentLength } from '../shared/upstream-http.js';
import { tapJson, tapSse } from '../shared/usage-tap.js';
import type { PassthroughResponse, RawChatRequest } from '../../core/passthrough.js';
import type { Attempt } from '../types.js';
import { geminiHeaders, geminiModelUrl } from './gemini-request.js';
import { mapGeminiError } from './map-gemini-error.js';

/** Each chunk carries the usage so far; the tap keeps the last one seen. */
function sseUsage(event: SseEvent): Partial<Usage> | undefined {
  if (!event.data.includes('"usageMetadata"')) return undefined;
  try {
    const meta = (JSON.parse(event.data) as GeminiGenerateContentResponse).usageMetadata;
    return meta && typeof meta === 'object' ? fromGeminiUsage(meta) : undefined;
  } catch {
    return undefined;
  }
}

function jsonUsage(document: unknown): Partial<Usage> | undefined {
  const meta = (document as GeminiGenerateContentResponse | null)?.usageMetadata;
  return meta && typeof meta === 'object' ? fromGeminiUsage(meta) : undefined;
}

export async function geminiPassthrough(request: RawChatRequest, attempt: Attempt): Promise<PassthroughResponse> {
  const body = request.body.model === undefined ? request.body : { ...request.body, model: `models/${attempt.upstreamModel}` };
  const response = await sendUpstream({
    url: geminiModelUrl(attempt, request.stream ? 'streamGenerateContent' : 'generateContent'),
    headers: geminiHeaders(attempt),
    body: JSON.stringify(body),
    signal: attempt.signal,
    timeoutMs: attempt.channel.timeoutMs,
  });
  if (response.status < 200 || response.status >= 300) {
    throw mapGeminiError(response.status, await readErrorText(response.body), response.headers);
  }
  const contentType = headerValue(response.headers, 'content-type');
  const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
  if (!request.stream) relayContentLength(response.headers, headers);
  const tapped = request.stream ? tapSse(response.body, sseUsage) : tapJson(response.body, jsonUsage, 'usageMetadata');
  return { status: response.status, headers, body: tapped.body, usage: tapped.usage };
}
