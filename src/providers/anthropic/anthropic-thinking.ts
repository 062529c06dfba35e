/**
 * Token cap, extended thinking and sampling of a translated Anthropic request.
 *
 * - `max_tokens` is the client's cap; without one, the channel's `defaultMaxTokens`, else the
 *   model's own output limit from the catalog, else 4096.
 * - In the OpenAI and Gemini dialects reasoning counts against the client's cap, so the
 *   thinking budget is fitted inside it (leaving room for the answer), never the cap raised.
 * - Anthropic rejects thinking when the final assistant turn replays a tool call without the
 *   thinking block that preceded it (clients of other dialects often cannot send it back):
 *   thinking is then left off for that request.
 * - With thinking on, Anthropic accepts no temperature but 1, no top_k and no top_p below 0.95.
 *
 * Everything dropped or changed is reported through `attempt.warn`.
 */
import type { ChatRequest } from '../../core/chat.js';
import type { AnthropicMessage, AnthropicMessagesRequest } from '../../core/wire/anthropic-types.js';
import type { Attempt } from '../types.js';

const DEFAULT_MAX_TOKENS = 4096;
/** Anthropic's smallest accepted thinking budget. */
const MIN_THINKING_BUDGET = 1024;
/** Room kept for the answer when a budget has to shrink to fit the client's cap. */
const ANSWER_ROOM = 1024;

function maxTokensOption(attempt: Attempt): number | undefined {
  const value = attempt.channel.options.defaultMaxTokens;
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** The `max_tokens` to send: the client's cap, or a default when it gave none. */
export function anthropicMaxTokens(request: ChatRequest, attempt: Attempt): number {
  return request.maxTokens ?? maxTokensOption(attempt) ?? attempt.maxOutputTokens ?? DEFAULT_MAX_TOKENS;
}

/** Whether the final assistant turn holds a tool call but does not start with a thinking block. */
export function replaysToolUseWithoutThinking(messages: readonly AnthropicMessage[]): boolean {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role !== 'assistant') continue;
    if (typeof message.content === 'string') return false;
    if (!message.content.some((block) => block.type === 'tool_use')) return false;
    const first = message.content[0]?.type;
    return first !== 'thinking' && first !== 'redacted_thinking';
  }
  return false;
}

/** The budget to send, or undefined to leave thinking off; `body.max_tokens` may grow when the client set no cap. */
function fitBudget(body: AnthropicMessagesRequest, request: ChatRequest, attempt: Attempt, requested: number): number | undefined {
  let budget = requested;
  if (budget < MIN_THINKING_BUDGET) {
    attempt.warn?.(`thinking: budget raised from ${requested} to Anthropic's minimum of ${MIN_THINKING_BUDGET} tokens`);
    budget = MIN_THINKING_BUDGET;
  }
  if (request.maxTokens === undefined && body.max_tokens < budget + ANSWER_ROOM) {
    // A default, not the client's cap: make room for the thinking, within the model's limit.
    const grown = budget + DEFAULT_MAX_TOKENS;
    body.max_tokens = attempt.maxOutputTokens !== undefined ? Math.min(grown, attempt.maxOutputTokens) : grown;
  }
  if (budget + ANSWER_ROOM <= body.max_tokens) return budget;
  const fitted = Math.max(MIN_THINKING_BUDGET, body.max_tokens - ANSWER_ROOM);
  if (fitted >= body.max_tokens) {
    attempt.warn?.(`thinking: left off: max_tokens ${body.max_tokens} leaves no room for Anthropic's minimum thinking budget of ${MIN_THINKING_BUDGET} tokens`);
    return undefined;
  }
  attempt.warn?.(`thinking: budget reduced from ${budget} to ${fitted} tokens to fit max_tokens ${body.max_tokens}`);
  return fitted;
}

/** Sets `thinking` (when asked for and possible) and the sampling settings it allows on `body`. */
export function applyThinkingAndSampling(body: AnthropicMessagesRequest, request: ChatRequest, attempt: Attempt): void {
  let budget: number | undefined;
  const requested = request.thinkingBudget;
  if (requested !== undefined && requested > 0) {
    if (replaysToolUseWithoutThinking(body.messages)) {
      attempt.warn?.(
        'thinking: left off for this request: the last assistant turn replays a tool call without its thinking block (send thinking_blocks or thoughtSignature parts back unchanged to keep it on)',
      );
    } else {
      budget = fitBudget(body, request, attempt, requested);
    }
  }
  if (budget !== undefined) body.thinking = { type: 'enabled', budget_tokens: budget };
  const thinking = budget !== undefined;

  if (request.temperature !== undefined) {
    if (!thinking) {
      if (request.temperature > 1) attempt.warn?.(`temperature: ${request.temperature} is above Anthropic's maximum, sent as 1`);
      body.temperature = Math.min(1, request.temperature);
    } else if (request.temperature !== 1) attempt.warn?.('temperature: dropped: Anthropic accepts only temperature 1 with thinking on');
  }
  if (request.topP !== undefined) {
    if (!thinking || request.topP >= 0.95) body.top_p = request.topP;
    else attempt.warn?.('top_p: dropped: Anthropic accepts only top_p of 0.95 or more with thinking on');
  }
  if (request.topK !== undefined) {
    if (!thinking) body.top_k = request.topK;
    else attempt.warn?.('top_k: dropped: Anthropic accepts no top_k with thinking on');
  }
}
