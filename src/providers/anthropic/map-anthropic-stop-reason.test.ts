import { describe, expect, it } from 'vitest';
import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['stop_sequence', 'stop_sequence'],
    ['tool_use', 'tool_calls'],
    ['pause_turn', 'pause'],
    ['refusal', 'refusal'],
    [null, 'stop'],
    ['something_new', 'other'],
  ])('%s → %s', (wire, canonical) => {
    expect(mapAnthropicStopReason(wire)).toBe(canonical);
  });
});
