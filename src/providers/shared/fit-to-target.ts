/**
 * The fit step of a translated chat request: every field whose value the target upstream
 * documents a limit for is checked or fitted here, once, before the request is built — so a
 * request valid in the client's dialect is not refused by the upstream for a limit the client
 * could not know. Each provider declares its target's limits as data (`openai-limits.ts`,
 * `anthropic-limits.ts`, `gemini-limits.ts`) and calls `fitToTarget` first.
 *
 * - Fitted, the client told through `attempt.warn` where the answer may differ: the output
 *   cap (clamped to the model's catalog limit), an over-long end-user id (sent hashed,
 *   `fit-user-id.ts`), tool names (shortened reversibly, `fit-tool-names.ts`; no warning, the
 *   client sees its own names).
 * - Refused with a 400 naming the target, where fitting would change what is asked: more stop
 *   sequences (`check-stop-sequences.ts`) or more tools than the target accepts.
 */
import type { ChatRequest } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';
import type { Attempt } from '../types.js';
import { checkStopSequences, type StopSequenceRules } from './check-stop-sequences.js';
import { fitToolNames, type ToolNameMap, type ToolNameRules } from './fit-tool-names.js';
import { fitUserId } from './fit-user-id.js';

export interface TargetLimits {
  /** Stop-sequence count and form; `stop.upstream` is the name every warning and refusal uses. */
  stop: StopSequenceRules;
  /** Longest end-user id (OpenAI `user`, Anthropic `metadata.user_id`), when the target sends one. */
  userMaxLength?: number;
  /** What a tool name may be. */
  toolNames?: ToolNameRules;
  /** Most tools one request may define. */
  maxTools?: number;
}

export interface FittedRequest {
  request: ChatRequest;
  /** Restores the client's tool names in the upstream's answer. */
  names: ToolNameMap;
}

export function fitToTarget(request: ChatRequest, attempt: Attempt, limits: TargetLimits): FittedRequest {
  const upstream = limits.stop.upstream;
  checkStopSequences(request, limits.stop);
  const toolCount = request.tools?.length ?? 0;
  if (limits.maxTools !== undefined && toolCount > limits.maxTools) {
    throw invalidRequest(`tools: ${request.model} (${upstream}) accepts at most ${limits.maxTools} tools, got ${toolCount}`, 'tools');
  }
  let fitted = request;
  const cap = attempt.maxOutputTokens;
  if (request.maxTokens !== undefined && cap !== undefined && request.maxTokens > cap) {
    attempt.warn?.(`max_tokens: ${request.maxTokens} is above the output limit of ${request.model} (${cap} tokens); sent as ${cap}`);
    fitted = { ...fitted, maxTokens: cap };
  }
  if (request.user !== undefined && limits.userMaxLength !== undefined && request.user.length > limits.userMaxLength) {
    attempt.warn?.(`user: longer than ${upstream}'s limit of ${limits.userMaxLength} characters; sent as its SHA-256 hash`);
    fitted = { ...fitted, user: fitUserId(request.user, limits.userMaxLength) };
  }
  if (!limits.toolNames) return { request: fitted, names: { originals: new Map(), restore: (name) => name } };
  return fitToolNames(fitted, limits.toolNames);
}
