/**
 * A token estimate for upstreams that do not report usage (Gemini embeddings, some
 * OpenAI-compatible servers): counted with o200k_base, which is close to, not equal to,
 * what the upstream's own tokenizer would say. Callers load the tokenizer first
 * (`loadTokenizer` in core/tokenizer.ts).
 */
import { countTextsTokens } from '../../core/tokenizer.js';

/** Bounded on the event loop whatever the texts (see core/tokenizer.ts). */
export function estimateTextTokens(texts: readonly string[]): number {
  return countTextsTokens(texts);
}
