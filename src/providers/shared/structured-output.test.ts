import { describe, expect, it } from 'vitest';
import type { ChannelConfig } from '../types.js';
import { formatInstruction, jsonResponseFormat, nativeStructuredOutput } from './structured-output.js';

const channel = (options: Record<string, unknown>): ChannelConfig => ({
  name: 'c',
  provider: 'openai',
  baseUrl: '',
  apiKey: '',
  headers: {},
  timeoutMs: 1,
  options,
});

describe('structured output helpers', () => {
  it('uses the native form unless the channel says structuredOutput: false', () => {
    expect(nativeStructuredOutput(channel({}))).toBe(true);
    expect(nativeStructuredOutput(channel({ structuredOutput: true }))).toBe(true);
    expect(nativeStructuredOutput(channel({ structuredOutput: false }))).toBe(false);
  });

  it('needs JSON only for json_object and json_schema, and words the instruction with the schema', () => {
    expect(jsonResponseFormat(undefined)).toBeUndefined();
    expect(jsonResponseFormat({ type: 'text' })).toBeUndefined();
    expect(jsonResponseFormat({ type: 'json_object' })).toEqual({ type: 'json_object' });
    expect(formatInstruction({ type: 'json_schema', schema: { type: 'object' } })).toMatch(/conforms to this JSON Schema:\n\{"type":"object"\}$/);
  });
});
