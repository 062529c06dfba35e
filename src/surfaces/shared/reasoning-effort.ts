/**
 * OpenAI's `reasoning_effort` (Chat Completions) and `reasoning.effort` (Responses) as the
 * canonical thinking budget, one mapping for both surfaces: upstreams that take a budget in
 * tokens (Anthropic, Gemini) get these figures; `none` and `minimal` ask for no thinking.
 */
import { oneOf } from '../../core/validate.js';

const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high'] as const;

export type ReasoningEffort = (typeof REASONING_EFFORTS)[number];

/** Thinking budgets (tokens) that stand in for an effort on upstreams that take budgets. */
const THINKING_BUDGET: Record<ReasoningEffort, number | undefined> = {
  none: undefined,
  minimal: undefined,
  low: 1024,
  medium: 4096,
  high: 16384,
};

/** The effort named at `param` (absent or null: undefined); `invalid_request` for any other value. */
export function parseReasoningEffort(value: unknown, param: string): ReasoningEffort | undefined {
  if (value === undefined || value === null) return undefined;
  return oneOf(value, param, REASONING_EFFORTS);
}

/** The canonical thinking budget of an effort, undefined for no thinking. */
export function thinkingBudgetForEffort(effort: ReasoningEffort | undefined): number | undefined {
  return effort === undefined ? undefined : THINKING_BUDGET[effort];
}
