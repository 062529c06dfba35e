/**
 * Token usage in canonical form. `inputTokens` counts every input token, cached or not;
 * `cacheReadTokens` and `cacheWriteTokens` are the parts of it read from or written to a
 * prompt cache (so uncached input = input − cacheRead − cacheWrite).
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** Part of `outputTokens` spent on reasoning, when the upstream says. */
  reasoningTokens?: number;
}

/** Merges a partial usage report into an accumulated one; later non-undefined values win. */
export function mergeUsage(into: Usage, update: Partial<Usage> | undefined): Usage {
  if (!update) return into;
  if (update.inputTokens !== undefined) into.inputTokens = update.inputTokens;
  if (update.outputTokens !== undefined) into.outputTokens = update.outputTokens;
  if (update.cacheReadTokens !== undefined) into.cacheReadTokens = update.cacheReadTokens;
  if (update.cacheWriteTokens !== undefined) into.cacheWriteTokens = update.cacheWriteTokens;
  if (update.reasoningTokens !== undefined) into.reasoningTokens = update.reasoningTokens;
  return into;
}
