/**
 * A token estimate for upstreams that do not report usage (Gemini embeddings, some
 * OpenAI-compatible servers): counted with o200k_base, which is close to, not equal to,
 * what the upstream's own tokenizer would say.
 */
import { countTokens } from 'gpt-tokenizer';

const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function estimateTextTokens(texts: readonly string[]): number {
  let total = 0;
  for (const text of texts) if (text.length > 0) total += countTokens(text, PLAIN_TEXT);
  return total;
}
