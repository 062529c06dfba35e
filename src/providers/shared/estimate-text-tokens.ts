/**
 * A token estimate for upstreams that do not report usage (Gemini embeddings, some
 * OpenAI-compatible servers): counted with o200k_base, which is close to, not equal to,
 * what the upstream's own tokenizer would say. Callers load the tokenizer first
 * (`loadTokenizer` in core/tokenizer.ts).
 */
import { countTextTokens } from '../../core/tokenizer.js';

export function estimateTextTokens(texts: readonly string[]): number {
  let total = 0;
  for (const text of texts) total += countTextTokens(text);
  return total;
}
