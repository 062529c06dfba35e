import { describe, expect, it } from 'vitest';
import type { FinishReason } from '../../core/chat.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

describe('mapGeminiFinishReason', () => {
  it.each<[string | undefined, boolean, FinishReason]>([
    ['STOP', false, 'stop'],
    ['STOP', true, 'tool_calls'],
    [undefined, false, 'stop'],
    ['MAX_TOKENS', false, 'length'],
    ['MAX_TOKENS', true, 'length'],
    ['SAFETY', false, 'content_filter'],
    ['RECITATION', false, 'content_filter'],
    ['BLOCKLIST', false, 'content_filter'],
    ['PROHIBITED_CONTENT', false, 'content_filter'],
    ['SPII', false, 'content_filter'],
    ['MALFORMED_FUNCTION_CALL', false, 'other'],
    ['OTHER', false, 'other'],
  ])('%s (calls: %s) → %s', (reason, calls, expected) => {
    expect(mapGeminiFinishReason(reason, calls)).toBe(expected);
  });
});
