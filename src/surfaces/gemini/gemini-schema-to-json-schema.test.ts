import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { geminiSchemaToJsonSchema } from './gemini-schema-to-json-schema.js';

describe('geminiSchemaToJsonSchema', () => {
  it('lower-cases types at every depth and keeps property names as given', () => {
    expect(
      geminiSchemaToJsonSchema(
        {
          type: 'OBJECT',
          description: 'A light',
          properties: {
            Brightness_Level: { type: 'NUMBER', minimum: 0, maximum: 100 },
            color: { type: 'STRING', enum: ['warm', 'cold'], format: 'enum' },
            tags: { type: 'ARRAY', items: { type: 'STRING' }, min_items: 1 },
          },
          required: ['Brightness_Level'],
          propertyOrdering: ['Brightness_Level', 'color', 'tags'],
        },
        'parameters',
      ),
    ).toEqual({
      type: 'object',
      description: 'A light',
      properties: {
        Brightness_Level: { type: 'number', minimum: 0, maximum: 100 },
        color: { type: 'string', enum: ['warm', 'cold'] },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1 },
      },
      required: ['Brightness_Level'],
    });
  });

  it('turns nullable into a null type, also for anyOf', () => {
    expect(geminiSchemaToJsonSchema({ type: 'INTEGER', nullable: true }, 'p')).toEqual({ type: ['integer', 'null'] });
    expect(geminiSchemaToJsonSchema({ any_of: [{ type: 'STRING' }, { type: 'NUMBER' }], nullable: true }, 'p')).toEqual({
      anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'null' }],
    });
  });

  it('accepts schemas already written with lower-case JSON Schema types', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false };
    expect(geminiSchemaToJsonSchema(schema, 'p')).toEqual(schema);
  });

  it('names the nested field of a malformed schema', () => {
    let error: unknown;
    try {
      geminiSchemaToJsonSchema({ type: 'OBJECT', properties: { a: 'STRING' } }, 'tools[0].functionDeclarations[0].parameters');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).param).toBe('tools[0].functionDeclarations[0].parameters.properties.a');
  });
});
