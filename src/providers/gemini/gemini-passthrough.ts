/**
 * Same-dialect pass-through: the client's GenerateContentRequest goes upstream untouched
 * (the model is in the URL; a body `model` field, when present, is rewritten too) and the
 * answer is relayed as the upstream wrote it (naming the public model in `modelVersion`)
 * while a tap reads `usageMetadata` and the produced text from it.
 */
import type { SseEvent } from '../../core/sse.js';
import type { Usage } from '../../core/usage.js';
import type { GeminiGenerateContentResponse } from '../../core/wire/gemini-types.js';
import { fromGeminiUsage } from '../../core/wire/gemini-usage.js';
import { publicModelOf, renameModel, renameModelBytes } from '../shared/public-model.js';
import { headerValue } from '../shared/upstream-http.js';
import { tapJson } from '../shared/json-tap.js';
import type { TapFindings } from '../shared/sse-findings.js';
import { type SseEventReader, tapSse } from '../shared/sse-tap.js';
import type { PassthroughResponse, RawChatRequest } from '../../core/passthrough.js';
import type { Attempt } from '../types.js';
import { GEMINI_API_ENDPOINT, type GeminiEndpoint, postGemini } from './gemini-request.js';

/**
 * The stream reader. Each chunk carries the usage so far and its parts, so a chunk holding
 * either is parsed once for both; the tap keeps the last usage seen.
 */
function geminiStreamReader(model: string | undefined): SseEventReader {
  return (event: SseEvent, found: TapFindings) => {
    const data = event.data;
    if (data.includes('"usageMetadata"') || data.includes('"parts"')) readChunk(data, found);
    return model === undefined ? data : renameModel(data, 'modelVersion', 1, model);
  };
}

function readChunk(data: string, found: TapFindings): void {
  let chunk: GeminiGenerateContentResponse;
  try {
    chunk = JSON.parse(data) as GeminiGenerateContentResponse;
  } catch {
    return;
  }
  if (chunk === null || typeof chunk !== 'object') return;
  for (const candidate of Array.isArray(chunk.candidates) ? chunk.candidates : []) {
    const parts = candidate?.content?.parts;
    if (!Array.isArray(parts)) continue;
    for (const part of parts) {
      if (typeof part?.text === 'string') found.text(part.text);
      else if (part?.functionCall?.args !== undefined) found.text(JSON.stringify(part.functionCall.args));
    }
  }
  const meta = chunk.usageMetadata;
  if (meta && typeof meta === 'object') found.usage(fromGeminiUsage(meta));
}

function jsonUsage(document: unknown): Partial<Usage> | undefined {
  const meta = (document as GeminiGenerateContentResponse | null)?.usageMetadata;
  return meta && typeof meta === 'object' ? fromGeminiUsage(meta) : undefined;
}

export async function geminiPassthrough(
  request: RawChatRequest,
  attempt: Attempt,
  endpoint: GeminiEndpoint = GEMINI_API_ENDPOINT,
): Promise<PassthroughResponse> {
  const response = await postGemini(endpoint, attempt, request.stream ? 'streamGenerateContent' : 'generateContent', bodyFor(request.body, attempt, endpoint));
  const contentType = headerValue(response.headers, 'content-type');
  const headers: Record<string, string> = contentType === undefined ? {} : { 'content-type': contentType };
  const upstreamRequestId = headerValue(response.headers, 'x-request-id');
  const model = publicModelOf(request);
  if (request.stream) {
    const tapped = tapSse(response.body, geminiStreamReader(model), {
      rewrites: model !== undefined,
      beforeEnd: request.beforeEnd,
      cutEvent: request.cutEvent,
    });
    return { status: response.status, headers, upstreamRequestId, body: tapped.body, usage: tapped.result };
  }
  const tapped = await tapJson(response.body, {
    extract: jsonUsage,
    usageKey: 'usageMetadata',
    rewrite: model === undefined ? undefined : (text) => renameModel(text, 'modelVersion', 1, model),
    rewriteBytes: model === undefined ? undefined : (bytes) => renameModelBytes(bytes, 'modelVersion', model),
  });
  const length = tapped.length ?? headerValue(response.headers, 'content-length');
  if (length !== undefined) headers['content-length'] = String(length);
  return { status: response.status, headers, upstreamRequestId, body: tapped.body, usage: tapped.result };
}

/** The client's body with the upstream's model named where it named one, or without `model` where the upstream refuses it. */
function bodyFor(body: Record<string, unknown>, attempt: Attempt, endpoint: GeminiEndpoint): Record<string, unknown> {
  if (body.model === undefined) return body;
  if (!endpoint.bodyMayNameModel) {
    const { model: _model, ...rest } = body;
    return rest;
  }
  return { ...body, model: `models/${attempt.upstreamModel}` };
}
