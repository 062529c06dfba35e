/**
 * What an answer cut short is billed: what the upstream reported, completed locally — the
 * produced text counted when the upstream's output count is missing or behind it, the
 * request's input estimated when the upstream never said.
 */
import { countTextTokens, loadTokenizer } from '../core/tokenizer.js';
import type { Usage } from '../core/usage.js';

interface CutAnswer {
  /** Usage the upstream reported before the cut, if any. */
  reported: Partial<Usage> | undefined;
  /** The assistant text and tool arguments relayed before the cut. */
  producedText: string;
  /** A local estimate of the request's input tokens (called with the tokenizer loaded); may throw. */
  estimateInput(): number;
}

export async function usageOfCutAnswer(cut: CutAnswer): Promise<Usage> {
  await loadTokenizer();
  const reported = cut.reported ?? {};
  let inputTokens = reported.inputTokens ?? 0;
  if (inputTokens === 0) {
    try {
      inputTokens = cut.estimateInput();
    } catch {
      inputTokens = 0;
    }
  }
  const outputTokens = Math.max(reported.outputTokens ?? 0, countTextTokens(cut.producedText));
  return { ...reported, inputTokens, outputTokens };
}
