import { describe, expect, it } from 'vitest';
import { createPrng } from '../shared/prng.js';
import { readDescribedConstraints } from './described-constraints.js';
import { generateFromSchema } from './generate-from-schema.js';

describe('readDescribedConstraints', () => {
  it('reads the constraints the Anthropic SDK appends to a description', () => {
    expect(readDescribedConstraints('{minimum: 1, maximum: 12}')).toEqual({ minimum: 1, maximum: 12 });
    expect(readDescribedConstraints('How many people\n\n{minLength: 3, maxLength: 60, pattern: "^[a-z, ]+$"}')).toEqual({
      minLength: 3,
      maxLength: 60,
      pattern: '^[a-z, ]+$',
    });
    expect(readDescribedConstraints('{exclusiveMinimum: 0, multipleOf: 0.5, maxItems: 6, uniqueItems: true}')).toEqual({
      exclusiveMinimum: 0,
      multipleOf: 0.5,
      maxItems: 6,
      uniqueItems: true,
    });
  });

  it('ignores prose, unknown keywords and values of the wrong type', () => {
    expect(readDescribedConstraints('The number of servings')).toBeUndefined();
    expect(readDescribedConstraints('Uses {braces} in prose}')).toBeUndefined();
    expect(readDescribedConstraints('{propertyNames: {"type": "string"}, maxLength: -1, minimum: "3"}')).toBeUndefined();
    expect(readDescribedConstraints(`{minimum: 1}${' '.repeat(5_000)}}`)).toBeUndefined();
  });
});

describe('generateFromSchema with described constraints', () => {
  it('keeps to them where the keywords are missing, and lets keywords win', () => {
    const schema = {
      type: 'object',
      properties: {
        servings: { type: 'integer', description: '{minimum: 1, maximum: 12}' },
        title: { type: 'string', description: 'A title\n\n{minLength: 30, maxLength: 40}' },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 2, description: '{maxItems: 6, minItems: 2}' },
      },
      required: ['servings', 'title', 'tags'],
    };
    for (let seed = 1; seed <= 40; seed++) {
      const value = generateFromSchema(schema, createPrng(seed)) as { servings: number; title: string; tags: string[] };
      expect(value.servings).toBeGreaterThanOrEqual(1);
      expect(value.servings).toBeLessThanOrEqual(12);
      expect(value.title.length).toBeGreaterThanOrEqual(30);
      expect(value.title.length).toBeLessThanOrEqual(40);
      expect(value.tags).toHaveLength(2);
    }
  });
});
