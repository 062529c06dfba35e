/**
 * Stop sequences checked against what the target upstream documents, before sending: a
 * client's request can be valid for its own surface (OpenAI allows 4, Gemini 5, Anthropic
 * sets no count) and still too much for the model it is routed to. The error names the
 * target so the client knows whose limit it hit, instead of relaying the upstream's 400.
 */
import type { ChatRequest } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';

export interface StopSequenceRules {
  /** The upstream's name as users know it, e.g. `OpenAI`. */
  upstream: string;
  /** The most stop sequences it accepts, when it documents a limit. */
  max?: number;
  /** It refuses a stop sequence of whitespace only (Anthropic). */
  nonBlank?: boolean;
}

export const OPENAI_STOP_RULES: StopSequenceRules = { upstream: 'OpenAI', max: 4 };
export const GEMINI_STOP_RULES: StopSequenceRules = { upstream: 'Gemini', max: 5 };
export const ANTHROPIC_STOP_RULES: StopSequenceRules = { upstream: 'Anthropic', nonBlank: true };

export function checkStopSequences(request: ChatRequest, rules: StopSequenceRules): void {
  const stop = request.stop ?? [];
  if (rules.max !== undefined && stop.length > rules.max) {
    throw invalidRequest(`stop: ${request.model} (${rules.upstream}) accepts at most ${rules.max} stop sequences, got ${stop.length}`, 'stop');
  }
  if (rules.nonBlank) {
    const blank = stop.findIndex((sequence) => sequence.trim().length === 0);
    if (blank >= 0) {
      throw invalidRequest(
        `stop[${blank}]: ${request.model} (${rules.upstream}) needs each stop sequence to contain a non-whitespace character`,
        `stop[${blank}]`,
      );
    }
  }
}
