/**
 * Anthropic usage ⇄ canonical usage. Anthropic's `input_tokens` excludes cached tokens
 * (cache reads and cache writes are reported beside it); the canonical `inputTokens`
 * counts them all.
 */
import type { Usage } from '../usage.js';
import type { AnthropicUsage } from './anthropic-types.js';

export interface AnthropicInputUsage {
  input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export interface RenderedInputUsage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** The canonical input-side usage of an Anthropic usage object (cache fields only when reported). */
export function fromAnthropicInputUsage(usage: AnthropicInputUsage): Pick<Usage, 'inputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'> {
  const write = usage.cache_creation_input_tokens ?? undefined;
  const read = usage.cache_read_input_tokens ?? undefined;
  const result: Pick<Usage, 'inputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'> = {
    inputTokens: (usage.input_tokens ?? 0) + (write ?? 0) + (read ?? 0),
  };
  if (read !== undefined) result.cacheReadTokens = read;
  if (write !== undefined) result.cacheWriteTokens = write;
  return result;
}

export function fromAnthropicUsage(usage: AnthropicUsage): Usage {
  // Not a spread plus a property: Node 20 makes that literal slow (see core/with-fields.ts).
  return Object.assign(fromAnthropicInputUsage(usage), { outputTokens: usage.output_tokens ?? 0 });
}

/** The input-side fields of an Anthropic usage object for a canonical usage. */
export function toAnthropicInputUsage(usage: Partial<Usage>): RenderedInputUsage {
  const read = usage.cacheReadTokens ?? 0;
  const write = usage.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage.inputTokens ?? 0) - read - write),
    cache_creation_input_tokens: write,
    cache_read_input_tokens: read,
  };
}

export function toAnthropicUsage(usage: Usage): RenderedInputUsage & { output_tokens: number } {
  const input = toAnthropicInputUsage(usage);
  return {
    input_tokens: input.input_tokens,
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: input.cache_creation_input_tokens,
    cache_read_input_tokens: input.cache_read_input_tokens,
  };
}
