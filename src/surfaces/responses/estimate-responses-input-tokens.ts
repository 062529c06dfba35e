/**
 * The answer of `POST /v1/responses/input_tokens`: the input tokens of a parsed request
 * (history, this turn, instructions and tools) by the gateway's own count, the one answers
 * without upstream usage are metered with (core/count-prompt-tokens.ts; OpenAI's o200k
 * tokenizer, flat costs for images and documents). No upstream is asked.
 */
import type { ChatRequest } from '../../core/chat.js';
import { countPromptTokens } from '../../core/count-prompt-tokens.js';
import { loadTokenizer } from '../../core/tokenizer.js';

export async function estimateResponsesInputTokens(canonical: ChatRequest): Promise<number> {
  await loadTokenizer();
  return countPromptTokens(canonical);
}
