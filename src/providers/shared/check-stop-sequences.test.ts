import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../core/chat.js';
import type { GatewayError } from '../../core/errors.js';
import { ANTHROPIC_STOP_RULES, checkStopSequences, GEMINI_STOP_RULES, OPENAI_STOP_RULES } from './check-stop-sequences.js';

const request = (stop: string[]): ChatRequest => ({ model: 'textmodel-b-4o', messages: [], stream: false, stop });
const failure = (fn: () => void): GatewayError => {
  try {
    fn();
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('expected an error');
};

describe('checkStopSequences', () => {
  it('refuses more than the target documents, naming the target model and upstream', () => {
    const error = failure(() => checkStopSequences(request(['a', 'b', 'c', 'd', 'e']), OPENAI_STOP_RULES));
    expect(error).toMatchObject({ kind: 'invalid_request', status: 400, param: 'stop' });
    expect(error.message).toBe('stop: textmodel-b-4o (OpenAI) accepts at most 4 stop sequences, got 5');
    expect(() => checkStopSequences(request(['a', 'b', 'c', 'd']), OPENAI_STOP_RULES)).not.toThrow();
  });

  it('allows Gemini five and refuses six', () => {
    expect(() => checkStopSequences(request(['1', '2', '3', '4', '5']), GEMINI_STOP_RULES)).not.toThrow();
    expect(failure(() => checkStopSequences(request(['1', '2', '3', '4', '5', '6']), GEMINI_STOP_RULES)).message).toContain('(Gemini) accepts at most 5');
  });

  it('refuses a whitespace-only stop sequence for Anthropic, which sets no count limit', () => {
    expect(() => checkStopSequences(request(Array.from({ length: 9 }, (_, i) => `s${i}`)), ANTHROPIC_STOP_RULES)).not.toThrow();
    expect(failure(() => checkStopSequences(request(['END', '\n']), ANTHROPIC_STOP_RULES))).toMatchObject({ param: 'stop[1]' });
  });
});
