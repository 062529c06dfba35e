/** The Gemini API as a ChatProvider: translated chat and streaming, and the same-dialect pass-through. */
import type { ChatEvent, ChatRequest, ChatResponse } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';
import type { GeminiGenerateContentRequest, GeminiGenerateContentResponse } from '../../core/wire/gemini-types.js';
import { fitToTarget } from '../shared/fit-to-target.js';
import { restoreToolNames, restoreToolNamesInStream, type ToolNameMap } from '../shared/fit-tool-names.js';
import { readJson, type UpstreamResponse } from '../shared/upstream-http.js';
import type { Attempt, ChatProvider } from '../types.js';
import { decodeGeminiStream } from './decode-gemini-stream.js';
import { fromGeminiResponse } from './from-gemini-response.js';
import { GEMINI_LIMITS } from './gemini-limits.js';
import { geminiPassthrough } from './gemini-passthrough.js';
import { GEMINI_API_ENDPOINT, type GeminiEndpoint, postGemini } from './gemini-request.js';
import { toGeminiRequest } from './to-gemini-request.js';

async function send(
  endpoint: GeminiEndpoint,
  original: ChatRequest,
  attempt: Attempt,
  stream: boolean,
): Promise<{ response: UpstreamResponse; names: ToolNameMap }> {
  const { request, names } = fitToTarget(original, attempt, GEMINI_LIMITS);
  const body = withCandidateCount(toGeminiRequest(request, attempt), request, stream, attempt);
  const response = await postGemini(endpoint, attempt, stream ? 'streamGenerateContent' : 'generateContent', body);
  return { response, names };
}

const MAX_CANDIDATES = 8;

/**
 * OpenAI `n` → `candidateCount`, for whole answers. The canonical stream has no choice index,
 * so a streamed answer carries one choice and the client is told.
 */
function withCandidateCount(body: GeminiGenerateContentRequest, request: ChatRequest, stream: boolean, attempt: Attempt): GeminiGenerateContentRequest {
  if (request.n === undefined || request.n <= 1) return body;
  if (request.n > MAX_CANDIDATES) throw invalidRequest(`n: ${request.model} (Gemini) answers at most ${MAX_CANDIDATES} candidates, got n=${request.n}`, 'n');
  if (stream) {
    attempt.warn?.(`n: a streamed answer from Gemini carries one choice; ${request.n} were asked for`);
    return body;
  }
  return { ...body, generationConfig: { ...body.generationConfig, candidateCount: request.n } };
}

export function createGeminiChatProvider(endpoint: GeminiEndpoint = GEMINI_API_ENDPOINT): ChatProvider {
  return {
    async chat(request: ChatRequest, attempt: Attempt): Promise<ChatResponse> {
      const { response, names } = await send(endpoint, request, attempt, false);
      return restoreToolNames(fromGeminiResponse(await readJson<GeminiGenerateContentResponse>(response.body), attempt.upstreamModel), names);
    },
    async chatStream(request: ChatRequest, attempt: Attempt): Promise<AsyncIterable<ChatEvent>> {
      const { response, names } = await send(endpoint, request, attempt, true);
      return restoreToolNamesInStream(decodeGeminiStream(response.body, attempt.upstreamModel), names);
    },
    passthrough: (raw, attempt) => geminiPassthrough(raw, attempt, endpoint),
  };
}
