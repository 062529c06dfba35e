import { createSchemaValidator } from '../../../test/helpers/json-schema-validator.js';
import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../core/errors.js';
import { createPrng } from '../shared/prng.js';
import { composeStructuredAnswer } from './compose-structured-answer.js';
import { createGenerationBudget } from './generation-limits.js';

const PERSON = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0, maximum: 120 }, role: { enum: ['admin', 'user'] } },
  required: ['name', 'age', 'role'],
  additionalProperties: false,
};

function compose(format: Parameters<typeof composeStructuredAnswer>[0], seed = 1): string | undefined {
  return composeStructuredAnswer(format, createPrng(seed), createGenerationBudget());
}

describe('composeStructuredAnswer', () => {
  it('answers plain text requests with nothing (the prose answer applies)', () => {
    expect(compose(undefined)).toBeUndefined();
    expect(compose({ type: 'text' })).toBeUndefined();
  });

  it('answers json_schema with JSON valid against the schema, the same for the same seed', () => {
    const validate = createSchemaValidator().compile(PERSON);
    for (let seed = 1; seed <= 20; seed++) {
      const text = compose({ type: 'json_schema', name: 'person', schema: PERSON }, seed) as string;
      expect(validate(JSON.parse(text)), text).toBe(true);
      expect(text).not.toContain('sandbox — simulated');
      expect(compose({ type: 'json_schema', name: 'person', schema: PERSON }, seed)).toBe(text);
    }
  });

  it('answers json_object with a small JSON object', () => {
    const text = compose({ type: 'json_object' }) as string;
    const value = JSON.parse(text);
    expect(typeof value).toBe('object');
    expect(Array.isArray(value)).toBe(false);
    expect(typeof value.answer).toBe('string');
    expect(text.length).toBeLessThan(100);
  });

  it('answers a schema whose root is not an object with that kind of value', () => {
    const value = JSON.parse(compose({ type: 'json_schema', schema: { type: 'array', items: { type: 'integer' }, minItems: 2 } }) as string);
    expect(Array.isArray(value)).toBe(true);
    expect(value.length).toBeGreaterThanOrEqual(2);
    expect(value.every(Number.isInteger)).toBe(true);
    expect(JSON.parse(compose({ type: 'json_schema', schema: { enum: ['yes', 'no'] } }) as string)).toMatch(/^(yes|no)$/);
  });

  it('refuses a schema over the bounds with a 400 naming the schema and the field', () => {
    let error: unknown;
    try {
      compose({ type: 'json_schema', name: 'rows', schema: { type: 'object', properties: { rows: { type: 'array', minItems: 1e9 } }, required: ['rows'] } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(400);
    expect((error as GatewayError).message).toBe(
      'structured output: the sandbox cannot generate an answer for the response schema "rows" at rows: minItems 1000000000 is more than the 100 items the sandbox generates in an array',
    );
  });
});
