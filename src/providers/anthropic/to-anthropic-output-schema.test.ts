import { describe, expect, it } from 'vitest';
import { toAnthropicOutputSchema } from './to-anthropic-output-schema.js';

function convert(schema: Record<string, unknown>): { out: Record<string, unknown>; warnings: string[] } {
  const warnings: string[] = [];
  const out = toAnthropicOutputSchema(schema, (message) => warnings.push(message));
  return { out, warnings };
}

describe('toAnthropicOutputSchema', () => {
  it('closes every object, keeps the supported keywords and $refs, and says nothing when the schema was already closed', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string', format: 'email', description: 'contact' },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1 },
        home: { $ref: '#/$defs/Address' },
        kind: { const: 'person' },
        maybe: { anyOf: [{ type: 'string' }, { type: 'null' }] },
      },
      required: ['name'],
      additionalProperties: false,
      $defs: { Address: { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false } },
    };
    const { out, warnings } = convert(schema);
    expect(out).toEqual(schema);
    expect(warnings).toEqual([]);
  });

  it('adds additionalProperties: false where it was left out (objects, nested and in $defs) without a warning', () => {
    const { out, warnings } = convert({
      type: 'object',
      properties: {
        inner: { type: 'object', properties: { a: { type: 'string' } } },
        list: { type: 'array', items: { properties: { b: { type: 'integer' } } } },
      },
      $defs: { D: { type: ['object', 'null'], properties: {} } },
    });
    expect(out).toEqual({
      type: 'object',
      properties: {
        inner: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false },
        list: { type: 'array', items: { type: 'object', properties: { b: { type: 'integer' } }, additionalProperties: false } },
      },
      $defs: { D: { type: ['object', 'null'], properties: {}, additionalProperties: false } },
      additionalProperties: false,
    });
    expect(warnings).toEqual([]);
  });

  it('moves unenforced constraints into descriptions, turns oneOf into anyOf, closes open objects, and warns once per kind', () => {
    const { out, warnings } = convert({
      type: 'object',
      description: 'A report',
      properties: {
        score: { type: 'integer', minimum: 1, maximum: 5 },
        code: { type: 'string', pattern: '^[A-Z]{3}$', format: 'iso-4217' },
        items: { type: 'array', items: { type: 'string' }, minItems: 2 },
        either: { oneOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] },
        map: { type: 'object', additionalProperties: { type: 'string' } },
      },
      additionalProperties: true,
    });
    expect(out).toEqual({
      type: 'object',
      description: 'A report',
      properties: {
        score: { type: 'integer', description: '{minimum: 1, maximum: 5}' },
        code: { type: 'string', description: '{pattern: "^[A-Z]{3}$", format: "iso-4217"}' },
        items: { type: 'array', items: { type: 'string' }, description: '{minItems: 2}' },
        either: { anyOf: [{ type: 'string' }, { type: 'integer', description: '{minimum: 0}' }] },
        map: { type: 'object', additionalProperties: false },
      },
      additionalProperties: false,
    });
    expect(warnings).toEqual([
      'response_format.schema: format, maximum, minItems, minimum, pattern not enforced by Anthropic, moved into descriptions',
      'response_format.schema: oneOf sent to Anthropic as anyOf',
      'response_format.schema: Anthropic requires closed objects, additionalProperties set to false',
    ]);
  });

  it('appends moved constraints to an existing description', () => {
    const { out } = convert({ type: 'string', description: 'ISO code', maxLength: 3 });
    expect(out).toEqual({ type: 'string', description: 'ISO code\n\n{maxLength: 3}' });
  });
});
