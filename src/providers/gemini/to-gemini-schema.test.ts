import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { MAX_KEYWORDS, toGeminiSchema } from './to-gemini-schema.js';

function convert(schema: Record<string, unknown>): { out: Record<string, unknown>; warnings: string[] } {
  const warnings: string[] = [];
  const out = toGeminiSchema(schema, 'response_format.schema', (message) => warnings.push(message));
  return { out, warnings };
}

describe('toGeminiSchema', () => {
  it('upper-cases types, keeps the subset keywords and says nothing when nothing is lost', () => {
    const { out, warnings } = convert({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      title: 'Report',
      properties: {
        name: { type: 'string', description: 'who', minLength: 1, maxLength: 40, pattern: '^[A-Z]' },
        when: { type: 'string', format: 'date-time' },
        score: { type: 'number', minimum: 0, maximum: 1, format: 'double' },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, maxItems: 3 },
      },
      required: ['name'],
      additionalProperties: false,
    });
    expect(out).toEqual({
      type: 'OBJECT',
      title: 'Report',
      properties: {
        name: { type: 'STRING', description: 'who', minLength: 1, maxLength: 40, pattern: '^[A-Z]' },
        when: { type: 'STRING', format: 'date-time' },
        score: { type: 'NUMBER', minimum: 0, maximum: 1, format: 'double' },
        tags: { type: 'ARRAY', items: { type: 'STRING', enum: ['a', 'b'] }, minItems: 1, maxItems: 3 },
      },
      required: ['name'],
    });
    expect(warnings).toEqual([]);
  });

  it('turns null types, null enum members and null anyOf branches into nullable', () => {
    const { out, warnings } = convert({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { enum: ['x', 'y', null] },
        c: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: 'count' },
        d: { const: 'fixed' },
      },
    });
    expect(out.properties).toEqual({
      a: { type: 'STRING', nullable: true },
      b: { type: 'STRING', enum: ['x', 'y'], nullable: true },
      c: { type: 'INTEGER', description: 'count', nullable: true },
      d: { type: 'STRING', enum: ['fixed'] },
    });
    expect(warnings).toEqual([]);
  });

  it('inlines local $refs ($defs and definitions), siblings refining the target', () => {
    const { out } = convert({
      type: 'object',
      properties: { home: { $ref: '#/$defs/Address', description: 'home address' }, work: { $ref: '#/definitions/Address' } },
      $defs: { Address: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
      definitions: { Address: { type: 'object', properties: { street: { type: 'string' } } } },
    });
    expect(out.properties).toEqual({
      home: { type: 'OBJECT', properties: { city: { type: 'STRING' } }, required: ['city'], description: 'home address' },
      work: { type: 'OBJECT', properties: { street: { type: 'STRING' } } },
    });
  });

  it('cuts a recursive $ref after two levels and says so', () => {
    const { out, warnings } = convert({
      $ref: '#/$defs/Node',
      $defs: { Node: { type: 'object', properties: { value: { type: 'string' }, next: { $ref: '#/$defs/Node' } } } },
    });
    const level2 = (out.properties as Record<string, Record<string, unknown>>).next;
    expect(level2.type).toBe('OBJECT');
    const cut = (level2.properties as Record<string, Record<string, unknown>>).next;
    expect(cut).toMatchObject({ type: 'STRING', nullable: true });
    expect(warnings).toEqual(['response_format.schema: recursive $ref #/$defs/Node cut after 2 levels (a nullable string in its place)']);
  });

  it('drops what the subset cannot say, naming it once, and approximates oneOf, allOf and type lists', () => {
    const { out, warnings } = convert({
      type: 'object',
      properties: {
        n: { type: 'integer', exclusiveMinimum: 0, multipleOf: 2 },
        m: { type: 'object', properties: { k: { type: 'string' } }, additionalProperties: { type: 'string' } },
        u: { type: 'string', format: 'email' },
        e: { enum: [1, 2] },
        o: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        t: { type: ['string', 'integer'] },
        all: {
          allOf: [
            { type: 'object', properties: { x: { type: 'string' } }, required: ['x'] },
            { properties: { y: { type: 'integer' } }, required: ['y'] },
          ],
        },
        tuple: { type: 'array', items: [{ type: 'string' }] },
        ref: { $ref: 'https://example.com/schema.json' },
      },
    });
    const properties = out.properties as Record<string, unknown>;
    expect(properties.n).toEqual({ type: 'INTEGER' });
    expect(properties.m).toEqual({ type: 'OBJECT', properties: { k: { type: 'STRING' } } });
    expect(properties.u).toEqual({ type: 'STRING' });
    expect(properties.e).toEqual({});
    expect(properties.o).toEqual({ anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] });
    expect(properties.t).toEqual({ anyOf: [{ type: 'STRING' }, { type: 'INTEGER' }] });
    expect(properties.all).toEqual({ type: 'OBJECT', properties: { x: { type: 'STRING' }, y: { type: 'INTEGER' } }, required: ['x', 'y'] });
    expect(properties.tuple).toEqual({ type: 'ARRAY' });
    expect(warnings).toEqual([
      "response_format.schema: $ref https://example.com/schema.json, additionalProperties, enum (non-string values), exclusiveMinimum, format email, items (tuple), multipleOf not supported by Gemini's OpenAPI schema subset, dropped",
      'response_format.schema: oneOf sent as anyOf',
      'response_format.schema: a list of types sent as anyOf',
      'response_format.schema: allOf merged into one schema',
    ]);
  });

  it('refuses a schema whose $refs would inline beyond the bound, as the client error it is', () => {
    // Each definition uses the next one twice: 2^20 copies once inlined.
    const defs: Record<string, unknown> = { D20: { type: 'string' } };
    for (let i = 0; i < 20; i++) defs[`D${i}`] = { type: 'object', properties: { a: { $ref: `#/$defs/D${i + 1}` }, b: { $ref: `#/$defs/D${i + 1}` } } };
    let error: unknown;
    try {
      convert({ $ref: '#/$defs/D0', $defs: defs });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).kind).toBe('invalid_request');
    expect((error as GatewayError).status).toBe(400);
    expect((error as GatewayError).message).toContain(`over ${MAX_KEYWORDS} keywords`);
  });
});
