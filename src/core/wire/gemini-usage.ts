/**
 * Gemini `usageMetadata` ⇄ canonical usage. Gemini's `promptTokenCount` already includes
 * cached tokens (like canonical `inputTokens`), while `candidatesTokenCount` excludes the
 * thoughts reported in `thoughtsTokenCount` (canonical `outputTokens` includes reasoning).
 */
import type { Usage } from '../usage.js';
import type { GeminiUsageMetadata } from './gemini-types.js';

export function fromGeminiUsage(meta: GeminiUsageMetadata): Usage {
  const thoughts = count(meta.thoughtsTokenCount);
  const cached = count(meta.cachedContentTokenCount);
  const usage: Usage = {
    inputTokens: count(meta.promptTokenCount) + count(meta.toolUsePromptTokenCount),
    outputTokens: count(meta.candidatesTokenCount) + thoughts,
  };
  if (cached > 0) usage.cacheReadTokens = cached;
  if (thoughts > 0) usage.reasoningTokens = thoughts;
  return usage;
}

/** Renders usage the way Gemini does: optional counts only when non-zero. */
export function toGeminiUsage(usage: Usage): GeminiUsageMetadata {
  const thoughts = usage.reasoningTokens ?? 0;
  const meta: GeminiUsageMetadata = {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: Math.max(0, usage.outputTokens - thoughts),
    totalTokenCount: usage.inputTokens + usage.outputTokens,
  };
  if ((usage.cacheReadTokens ?? 0) > 0) meta.cachedContentTokenCount = usage.cacheReadTokens;
  if (thoughts > 0) meta.thoughtsTokenCount = thoughts;
  return meta;
}

function count(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}
