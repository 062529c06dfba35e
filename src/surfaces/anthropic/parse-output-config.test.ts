import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { parseAnthropicMessagesRequest } from './parse-messages-request.js';
import { parseOutputConfig } from './parse-output-config.js';

const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };

function rejection(body: Record<string, unknown>): GatewayError {
  try {
    parseOutputConfig(body);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return error as GatewayError;
  }
  throw new Error('expected the body to be rejected');
}

function expectRejected(body: Record<string, unknown>, param: string, text?: string): void {
  const error = rejection(body);
  expect(error.kind).toBe('invalid_request');
  expect(error.status).toBe(400);
  expect(error.param).toBe(param);
  expect(error.message).toContain(param);
  if (text) expect(error.message).toContain(text);
}

describe('parseOutputConfig', () => {
  it('reads output_config.format as a JSON-schema response format', () => {
    expect(parseOutputConfig({ output_config: { format: { type: 'json_schema', schema } } })).toEqual({ type: 'json_schema', schema });
  });

  it('reads the beta output_format the same way', () => {
    expect(parseOutputConfig({ output_format: { type: 'json_schema', schema } })).toEqual({ type: 'json_schema', schema });
  });

  it('asks for nothing when neither is given, or only an effort', () => {
    expect(parseOutputConfig({})).toBeUndefined();
    expect(parseOutputConfig({ output_config: null, output_format: null })).toBeUndefined();
    expect(parseOutputConfig({ output_config: { effort: 'low' } })).toBeUndefined();
    expect(parseOutputConfig({ output_config: { format: null } })).toBeUndefined();
  });

  it('rejects bad shapes naming the field', () => {
    expectRejected({ output_config: 'json' }, 'output_config', 'expected an object');
    expectRejected({ output_config: { effort: 3 } }, 'output_config.effort');
    expectRejected({ output_config: { format: [] } }, 'output_config.format');
    expectRejected({ output_config: { format: { type: 'json_object', schema } } }, 'output_config.format.type', '"json_schema"');
    expectRejected({ output_config: { format: { schema } } }, 'output_config.format.type');
    expectRejected({ output_config: { format: { type: 'json_schema' } } }, 'output_config.format.schema', 'is required');
    expectRejected({ output_config: { format: { type: 'json_schema', schema: 'object' } } }, 'output_config.format.schema', 'expected an object');
    expectRejected({ output_format: { type: 'json_schema', schema: [] } }, 'output_format.schema');
    expectRejected({ output_format: { type: 'text' } }, 'output_format.type');
  });

  it('rejects a format given twice', () => {
    const format = { type: 'json_schema', schema };
    expectRejected({ output_config: { format }, output_format: format }, 'output_format', 'output_config.format');
  });

  it('sets the request response format', () => {
    expect(
      parseAnthropicMessagesRequest({
        model: 'textmodel-a-sonnet-4-20250514',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Hi' }],
        output_config: { effort: 'high', format: { type: 'json_schema', schema } },
      }).responseFormat,
    ).toEqual({
      type: 'json_schema',
      schema,
    });
  });
});
