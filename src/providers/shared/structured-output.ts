/**
 * What every chat provider shares about structured output: whether a channel takes the
 * upstream's native form, and the system-prompt instruction used where it does not.
 */
import type { ResponseFormat } from '../../core/chat.js';
import type { ChannelConfig } from '../types.js';

/** A channel uses its upstream's native structured output unless `options.structuredOutput` is false. */
export function nativeStructuredOutput(channel: ChannelConfig): boolean {
  return channel.options.structuredOutput !== false;
}

/** The JSON requests that need a structured answer (`text` needs nothing). */
export type JsonResponseFormat = Exclude<ResponseFormat, { type: 'text' }>;

export function jsonResponseFormat(format: ResponseFormat | undefined): JsonResponseFormat | undefined {
  return format && format.type !== 'text' ? format : undefined;
}

/** The instruction that asks for JSON in the prompt, for upstreams or channels without a native form. */
export function formatInstruction(format: JsonResponseFormat): string {
  if (format.type === 'json_object') return 'Respond with a single valid JSON object and nothing else: no prose, no code fences.';
  return `Respond with a single valid JSON object and nothing else (no prose, no code fences) that conforms to this JSON Schema:\n${JSON.stringify(format.schema)}`;
}

/** The warning of a channel configured without native structured output. */
export function instructionFallbackWarning(channel: ChannelConfig): string {
  return `response_format: channel ${channel.name} is configured without native structured output, asked for in the system prompt instead`;
}
