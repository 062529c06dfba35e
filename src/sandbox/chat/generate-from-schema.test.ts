import { createSchemaValidator } from '../../../test/helpers/json-schema-validator.js';
import { describe, expect, it } from 'vitest';
import { createPrng } from '../shared/prng.js';
import { generateFromSchema } from './generate-from-schema.js';
import { GenerationLimitError, MAX_ITEMS, MAX_STRING_LENGTH } from './generation-limits.js';

type Schema = Record<string, unknown> | boolean;

/**
 * A minimal JSON Schema checker for the keywords the generator claims to handle, written
 * from the JSON Schema specification (draft 2020-12, plus draft-04 boolean exclusives).
 */
function check(schema: Schema, value: unknown, root: Schema, path = '$'): string[] {
  if (schema === true) return [];
  if (schema === false) return [`${path}: schema false`];
  const errors: string[] = [];
  const s = schema;
  const fail = (message: string) => errors.push(`${path}: ${message}`);

  if (typeof s.$ref === 'string') {
    const ref = s.$ref;
    let target: unknown = root;
    if (ref !== '#') for (const key of ref.slice(2).split('/')) target = (target as Record<string, unknown>)[key];
    errors.push(...check(target as Schema, value, root, path));
  }
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) errors.push(...check(sub as Schema, value, root, path));
  if (Array.isArray(s.anyOf) && !s.anyOf.some((sub) => check(sub as Schema, value, root, path).length === 0)) fail('matches no anyOf branch');
  if (Array.isArray(s.oneOf)) {
    const matching = s.oneOf.filter((sub) => check(sub as Schema, value, root, path).length === 0).length;
    if (matching !== 1) fail(`matches ${matching} oneOf branches`);
  }
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(value)) fail('not the const');
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) fail('not in enum');

  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    const actual =
      value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
    const ok = types.includes(actual) || (actual === 'integer' && types.includes('number'));
    if (!ok) fail(`type ${actual}, expected ${types.join('|')}`);
  }

  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && (s.exclusiveMinimum === true ? value <= s.minimum : value < s.minimum)) fail(`below minimum ${s.minimum}`);
    if (typeof s.maximum === 'number' && (s.exclusiveMaximum === true ? value >= s.maximum : value > s.maximum)) fail(`above maximum ${s.maximum}`);
    if (typeof s.exclusiveMinimum === 'number' && value <= s.exclusiveMinimum) fail(`not above ${s.exclusiveMinimum}`);
    if (typeof s.exclusiveMaximum === 'number' && value >= s.exclusiveMaximum) fail(`not below ${s.exclusiveMaximum}`);
    if (typeof s.multipleOf === 'number') {
      const ratio = value / s.multipleOf;
      if (Math.abs(ratio - Math.round(ratio)) > 1e-9) fail(`not a multiple of ${s.multipleOf}`);
    }
  }

  if (typeof value === 'string') {
    const length = [...value].length;
    if (typeof s.minLength === 'number' && length < s.minLength) fail(`shorter than ${s.minLength}`);
    if (typeof s.maxLength === 'number' && length > s.maxLength) fail(`longer than ${s.maxLength}`);
    if (typeof s.pattern === 'string' && !new RegExp(s.pattern, 'u').test(value)) fail(`does not match ${s.pattern}`);
    if (typeof s.format === 'string' && !formatOk(s.format, value)) fail(`not a ${s.format}: ${value}`);
  }

  if (Array.isArray(value)) {
    if (typeof s.minItems === 'number' && value.length < s.minItems) fail(`fewer than ${s.minItems} items`);
    if (typeof s.maxItems === 'number' && value.length > s.maxItems) fail(`more than ${s.maxItems} items`);
    if (s.uniqueItems === true && new Set(value.map((v) => JSON.stringify(v))).size !== value.length) fail('items not unique');
    const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as Schema[]) : [];
    value.forEach((item, i) => {
      const sub = i < prefix.length ? prefix[i] : (s.items as Schema | undefined);
      if (sub !== undefined) errors.push(...check(sub, item, root, `${path}[${i}]`));
    });
  }

  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    if (Array.isArray(s.required)) for (const key of s.required) if (!(key in record)) fail(`missing required ${key}`);
    if (typeof s.minProperties === 'number' && keys.length < s.minProperties) fail(`fewer than ${s.minProperties} properties`);
    if (typeof s.maxProperties === 'number' && keys.length > s.maxProperties) fail(`more than ${s.maxProperties} properties`);
    for (const key of keys) {
      if (key in properties) errors.push(...check(properties[key], record[key], root, `${path}.${key}`));
      else if (s.additionalProperties === false) fail(`unexpected property ${key}`);
      else if (typeof s.additionalProperties === 'object') errors.push(...check(s.additionalProperties as Schema, record[key], root, `${path}.${key}`));
    }
  }
  return errors;
}

function formatOk(format: string, value: string): boolean {
  switch (format) {
    case 'date':
      return /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/.test(value) && !Number.isNaN(Date.parse(value));
    case 'date-time':
      return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value));
    case 'email':
      return /^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value);
    case 'uri':
      try {
        return new URL(value).protocol.length > 1;
      } catch {
        return false;
      }
    case 'uuid':
      return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
    case 'ipv4':
      return /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.test(value) && value.split('.').every((n) => Number(n) <= 255);
    default:
      return true;
  }
}

const SCHEMAS: Record<string, Record<string, unknown>> = {
  'weather tool': {
    type: 'object',
    properties: {
      city: { type: 'string', description: 'City name' },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      days: { type: 'integer', minimum: 1, maximum: 7 },
    },
    required: ['city'],
  },
  'strict mode (all required, nullable, no extras)': {
    type: 'object',
    properties: {
      query: { type: 'string' },
      limit: { type: ['integer', 'null'] },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['query', 'limit', 'tags'],
    additionalProperties: false,
  },
  'number bounds': {
    type: 'object',
    properties: {
      step5: { type: 'integer', multipleOf: 5, minimum: 10, exclusiveMaximum: 50 },
      ratio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
      quarter: { type: 'number', multipleOf: 0.25, minimum: -2, maximum: 2 },
      negative: { type: 'integer', maximum: -3 },
      draft4: { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 3, exclusiveMaximum: true },
      tight: { type: 'number', minimum: 1.5, maximum: 1.5 },
      halfInt: { type: 'integer', multipleOf: 1.5, minimum: 0, maximum: 10 },
      huge: { type: 'number', minimum: -Number.MAX_VALUE, maximum: Number.MAX_VALUE },
      hugeInt: { type: 'integer', exclusiveMinimum: -1e300, maximum: -1e299 },
      onlyMax: { type: 'number', maximum: 5 },
      belowOne: { type: 'integer', exclusiveMaximum: 0.5 },
      onlyMin: { type: 'integer', minimum: 1000 },
      zeroOpen: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 0.01 },
      unbounded: { type: 'number' },
    },
    required: [
      'step5',
      'ratio',
      'quarter',
      'negative',
      'draft4',
      'tight',
      'halfInt',
      'huge',
      'hugeInt',
      'onlyMax',
      'belowOne',
      'onlyMin',
      'zeroOpen',
      'unbounded',
    ],
  },
  'string lengths and patterns': {
    type: 'object',
    properties: {
      long: { type: 'string', minLength: 10, maxLength: 12 },
      short: { type: 'string', maxLength: 3 },
      lower: { type: 'string', pattern: '^[a-z]+$' },
      code: { type: 'string', pattern: '^[A-Z]{3}-\\d{4}$' },
      alt: { type: 'string', pattern: '^(foo|bar)_[0-9]{2,3}$' },
      phone: { type: 'string', pattern: '^\\+?[1-9]\\d{1,14}$' },
      color: { type: 'string', pattern: '^#[0-9a-fA-F]{6}$' },
      slug: { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 20 },
      unanchored: { type: 'string', pattern: 'v\\d+\\.\\d+' },
      negated: { type: 'string', pattern: '^[^0-9\\s]{4}$' },
    },
    required: ['long', 'short', 'lower', 'code', 'alt', 'phone', 'color', 'slug', 'unanchored', 'negated'],
  },
  formats: {
    type: 'object',
    properties: {
      day: { type: 'string', format: 'date' },
      at: { type: 'string', format: 'date-time' },
      mail: { type: 'string', format: 'email' },
      link: { type: 'string', format: 'uri' },
      id: { type: 'string', format: 'uuid' },
      ip: { type: 'string', format: 'ipv4' },
    },
    required: ['day', 'at', 'mail', 'link', 'id', 'ip'],
  },
  arrays: {
    type: 'object',
    properties: {
      unique: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c', 'd', 'e'] }, minItems: 2, maxItems: 4, uniqueItems: true },
      pair: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }], items: false },
      many: { type: 'array', items: { type: 'integer' }, minItems: 5 },
      people: {
        type: 'array',
        items: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } }, required: ['name', 'age'] },
        minItems: 1,
      },
    },
    required: ['unique', 'pair', 'many', 'people'],
  },
  'oneOf with discriminator, anyOf of types, nullable ref': {
    type: 'object',
    properties: {
      shape: {
        oneOf: [
          { type: 'object', properties: { kind: { const: 'circle' }, radius: { type: 'number', minimum: 0 } }, required: ['kind', 'radius'] },
          { type: 'object', properties: { kind: { const: 'square' }, side: { type: 'number', minimum: 0 } }, required: ['kind', 'side'] },
        ],
      },
      either: {
        anyOf: [
          { type: 'string', minLength: 2 },
          { type: 'integer', minimum: 100 },
        ],
      },
      maybe: { anyOf: [{ type: 'null' }, { $ref: '#/$defs/point' }] },
    },
    required: ['shape', 'either', 'maybe'],
    $defs: { point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'], additionalProperties: false } },
  },
  'allOf merge': {
    allOf: [
      { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
      { properties: { b: { type: 'integer', minimum: 3, maximum: 4 } }, required: ['b'] },
    ],
  },
  'definitions ref and recursion': {
    type: 'object',
    properties: {
      address: { $ref: '#/definitions/address' },
      tree: { $ref: '#/definitions/node' },
    },
    required: ['address', 'tree'],
    definitions: {
      address: { type: 'object', properties: { street: { type: 'string' }, zip: { type: 'string', pattern: '^\\d{5}$' } }, required: ['street', 'zip'] },
      node: {
        type: 'object',
        properties: { value: { type: 'integer' }, children: { type: 'array', items: { $ref: '#/definitions/node' } } },
        required: ['value'],
      },
    },
  },
  'map via additionalProperties': {
    type: 'object',
    properties: { scores: { type: 'object', additionalProperties: { type: 'integer', minimum: 0, maximum: 10 }, minProperties: 2 } },
    required: ['scores'],
  },
  'const, default, examples, booleans, nulls, type arrays': {
    type: 'object',
    properties: {
      version: { const: 2 },
      mode: { type: 'string', default: 'fast' },
      sample: { type: 'string', examples: ['hello'] },
      flag: { type: 'boolean' },
      nothing: { type: 'null' },
      mixed: { type: ['integer', 'boolean'] },
    },
    required: ['version', 'mode', 'sample', 'flag', 'nothing', 'mixed'],
  },
  'no properties at all': { type: 'object', properties: {} },
};

describe('the schema checker used here', () => {
  it('rejects values that break the schema', () => {
    const weather = SCHEMAS['weather tool'];
    expect(check(weather, { unit: 'celsius' }, weather)).toEqual(['$: missing required city']);
    expect(check(weather, { city: 'Oslo', unit: 'kelvin', days: 9 }, weather)).toEqual(['$.unit: not in enum', '$.days: above maximum 7']);
    const strict = SCHEMAS['strict mode (all required, nullable, no extras)'];
    expect(check(strict, { query: 'q', limit: 1.5, tags: [], extra: 1 }, strict)).toEqual([
      '$.limit: type number, expected integer|null',
      '$: unexpected property extra',
    ]);
    const shapes = SCHEMAS['oneOf with discriminator, anyOf of types, nullable ref'];
    expect(check(shapes, { shape: { kind: 'circle' }, either: 5, maybe: { x: 1 } }, shapes)).toEqual([
      '$.shape: matches 0 oneOf branches',
      '$.either: matches no anyOf branch',
      '$.maybe: matches no anyOf branch',
    ]);
  });
});

describe('generateFromSchema', () => {
  for (const [name, schema] of Object.entries(SCHEMAS)) {
    it(`satisfies the schema: ${name}`, () => {
      for (let seed = 1; seed <= 40; seed++) {
        const value = generateFromSchema(schema, createPrng(seed));
        expect(check(schema, value, schema), `seed ${seed}: ${JSON.stringify(value)}`).toEqual([]);
      }
    });
  }

  it('is deterministic for a seed and varies across seeds', () => {
    const schema = SCHEMAS['weather tool'];
    const first = JSON.stringify(generateFromSchema(schema, createPrng(7)));
    expect(JSON.stringify(generateFromSchema(schema, createPrng(7)))).toBe(first);
    const seen = new Set<string>();
    for (let seed = 1; seed <= 20; seed++) seen.add(JSON.stringify(generateFromSchema(schema, createPrng(seed))));
    expect(seen.size).toBeGreaterThan(5);
  });

  it('fills every required property and uses const, default and examples as given', () => {
    const schema = SCHEMAS['const, default, examples, booleans, nulls, type arrays'];
    const value = generateFromSchema(schema, createPrng(3)) as Record<string, unknown>;
    expect(Object.keys(value).sort()).toEqual(['flag', 'mixed', 'mode', 'nothing', 'sample', 'version']);
    expect(value.version).toBe(2);
    expect(value.mode).toBe('fast');
    expect(value.sample).toBe('hello');
    expect(value.nothing).toBeNull();
  });

  it('fills optional properties on some seeds and leaves them out on others', () => {
    const schema = SCHEMAS['weather tool'];
    const withUnit = [];
    for (let seed = 1; seed <= 30; seed++) withUnit.push('unit' in (generateFromSchema(schema, createPrng(seed)) as object));
    expect(withUnit).toContain(true);
    expect(withUnit).toContain(false);
  });

  it('keeps a property named __proto__ as an ordinary key', () => {
    const schema: unknown = JSON.parse('{"type":"object","properties":{"__proto__":{"const":"x"}},"required":["__proto__"]}');
    expect(JSON.stringify(generateFromSchema(schema, createPrng(1)))).toBe('{"__proto__":"x"}');
  });

  it('ends on a schema that requires itself forever', () => {
    const schema = { type: 'object', properties: { next: { $ref: '#' } }, required: ['next'] };
    expect(() => JSON.stringify(generateFromSchema(schema, createPrng(1)))).not.toThrow();
  });
});

function limitError(schema: unknown): GenerationLimitError {
  try {
    generateFromSchema(schema, createPrng(1));
  } catch (error) {
    if (error instanceof GenerationLimitError) return error;
    throw error;
  }
  throw new Error('expected a GenerationLimitError');
}

describe('generateFromSchema bounds', () => {
  it('finding 1: refuses minItems 1e9 by name, without building the array', () => {
    const error = limitError({ type: 'object', properties: { a: { type: 'array', minItems: 1e9, items: { type: 'integer' } } }, required: ['a'] });
    expect(error.path).toBe('$.a');
    expect(error.message).toBe(`minItems 1000000000 is more than the ${MAX_ITEMS} items the sandbox generates in an array`);
  });

  it('finding 1: clamps huge maximums and still satisfies the schema', () => {
    const schema = {
      type: 'object',
      properties: {
        list: { type: 'array', minItems: 5, maxItems: 1e9, items: { type: 'integer' } },
        text: { type: 'string', minLength: 3, maxLength: 1e12 },
        exact: { type: 'array', minItems: MAX_ITEMS, maxItems: MAX_ITEMS, items: { type: 'boolean' } },
        map: { type: 'object', additionalProperties: { type: 'integer' }, maxProperties: 1e9 },
      },
      required: ['list', 'text', 'exact', 'map'],
    };
    for (let seed = 1; seed <= 10; seed++) {
      const value = generateFromSchema(schema, createPrng(seed));
      expect(check(schema, value, schema)).toEqual([]);
      const record = value as { list: unknown[]; text: string; exact: unknown[] };
      expect(record.list.length).toBeLessThanOrEqual(MAX_ITEMS);
      expect(record.text.length).toBeLessThanOrEqual(MAX_STRING_LENGTH);
      expect(record.exact).toHaveLength(MAX_ITEMS);
    }
  });

  it('finding 1: refuses strings, patterns and objects whose minimum is over the bounds', () => {
    expect(limitError({ type: 'object', properties: { s: { type: 'string', minLength: 1e9 } }, required: ['s'] }).message).toMatch(
      /^minLength 1000000000 is more than/,
    );
    const pattern = limitError({ type: 'object', properties: { code: { type: 'string', pattern: '^a{1000000}$' } }, required: ['code'] });
    expect(pattern.path).toBe('$.code');
    expect(pattern.message).toMatch(/pattern needs at least 1000000 characters/);
    expect(limitError({ type: 'object', minProperties: 1e9, additionalProperties: { type: 'string' } }).message).toMatch(
      /^minProperties 1000000000 is more than/,
    );
  });

  it('finding 1: stops on schemas that multiply: nested arrays, $ref fan-out, repeated large defaults', () => {
    const nested = {
      type: 'array',
      minItems: 100,
      items: { type: 'array', minItems: 100, items: { type: 'array', minItems: 100, items: { type: 'string' } } },
    };
    expect(limitError(nested).message).toMatch(/(more than the [0-9]+ steps|longer than the [0-9]+ characters)/);
    const defs: Record<string, unknown> = { d30: { type: 'string' } };
    for (let i = 29; i >= 0; i--) defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    expect(limitError({ $defs: defs, $ref: '#/$defs/d0' }).message).toMatch(/steps/);
    const big = { type: 'string', default: 'x'.repeat(50_000) };
    expect(limitError({ type: 'array', minItems: 10, maxItems: 10, items: big }).message).toMatch(/characters/);
  });

  it('takes a malformed $ref escape literally instead of throwing', () => {
    const schema = { type: 'object', properties: { a: { $ref: '#/$defs/%E0%A4%A' } }, required: ['a'] };
    expect(() => generateFromSchema(schema, createPrng(1))).not.toThrow();
  });
});

describe('generateFromSchema on structured-output schemas (checked with ajv)', () => {
  const ajv = createSchemaValidator();

  function expectValidOnSeeds(schema: Record<string, unknown>, seeds = 60): unknown[] {
    const validate = ajv.compile(schema);
    const values: unknown[] = [];
    for (let seed = 1; seed <= seeds; seed++) {
      const value = generateFromSchema(schema, createPrng(seed));
      expect(validate(value), `seed ${seed}: ${JSON.stringify(value)} ${ajv.errorsText(validate.errors)}`).toBe(true);
      values.push(value);
    }
    return values;
  }

  function depthOf(value: unknown, key: string): number {
    let depth = 0;
    let node = value as Record<string, unknown> | null;
    while (node && typeof node === 'object' && node[key] !== null && node[key] !== undefined) {
      node = node[key] as Record<string, unknown>;
      depth++;
    }
    return depth;
  }

  it('ends a recursion through anyOf [$ref, null] with the null branch, after a few levels', () => {
    const list = {
      type: 'object',
      properties: { value: { type: 'number' }, next: { anyOf: [{ $ref: '#' }, { type: 'null' }] } },
      required: ['value', 'next'],
      additionalProperties: false,
    };
    const depths = expectValidOnSeeds(list).map((v) => depthOf(v, 'next'));
    expect(Math.max(...depths)).toBeLessThanOrEqual(3);
    expect(Math.min(...depths)).toBeGreaterThanOrEqual(1);
  });

  it('ends a recursion through a nullable container type (OpenAI strict style) with null', () => {
    const tree = {
      $defs: {
        node: {
          type: ['object', 'null'],
          properties: { label: { type: 'string' }, child: { $ref: '#/$defs/node' } },
          required: ['label', 'child'],
          additionalProperties: false,
        },
      },
      type: 'object',
      properties: { root: { $ref: '#/$defs/node' } },
      required: ['root'],
      additionalProperties: false,
    };
    const depths = expectValidOnSeeds(tree).map((v) => depthOf((v as { root: unknown }).root, 'child'));
    expect(Math.max(...depths)).toBeLessThanOrEqual(3);
  });

  it('recurses through definitions (draft-07 refs) and arrays of itself', () => {
    expectValidOnSeeds({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      definitions: {
        category: {
          type: 'object',
          properties: { name: { type: 'string', minLength: 1 }, children: { type: 'array', items: { $ref: '#/definitions/category' }, maxItems: 3 } },
          required: ['name', 'children'],
          additionalProperties: false,
        },
      },
      $ref: '#/definitions/category',
    });
  });

  it('meets every pattern of an allOf: prefix, suffix and infix (zod startsWith/endsWith/includes)', () => {
    const schema = { type: 'string', allOf: [{ pattern: '^ab.*' }, { pattern: '.*yz$' }, { pattern: 'mid' }], minLength: 10 };
    for (const value of expectValidOnSeeds(schema, 10)) {
      expect(value).toMatch(/^ab.*mid.*yz$/);
      expect((value as string).length).toBeGreaterThanOrEqual(10);
    }
  });

  it('names extra properties from propertyNames (a record keyed by an enum)', () => {
    const values = expectValidOnSeeds({
      type: 'object',
      propertyNames: { type: 'string', enum: ['red', 'green', 'blue'] },
      additionalProperties: { type: 'integer', minimum: 0, maximum: 255 },
      minProperties: 1,
    });
    expect(values.every((v) => Object.keys(v as object).every((k) => ['red', 'green', 'blue'].includes(k)))).toBe(true);
  });

  it('keeps uniqueItems over a small enum by making the array shorter', () => {
    expectValidOnSeeds({ type: 'array', items: { enum: ['a', 'b'] }, uniqueItems: true, minItems: 1, maxItems: 5 });
  });

  it('generates the string formats clients ask for', () => {
    const formats = [
      'date-time',
      'date',
      'time',
      'email',
      'uri',
      'uuid',
      'hostname',
      'ipv4',
      'ipv6',
      'duration',
      'byte',
      'regex',
      'json-pointer',
      'uri-template',
    ];
    expectValidOnSeeds({
      type: 'object',
      properties: Object.fromEntries(formats.map((f) => [f, { type: 'string', format: f }])),
      required: formats,
      additionalProperties: false,
    });
    const emoji = generateFromSchema({ type: 'string', format: 'emoji' }, createPrng(1)) as string;
    expect(emoji).toMatch(/^\p{Extended_Pictographic}+$/u);
    const jwt = generateFromSchema({ type: 'string', format: 'jwt' }, createPrng(1)) as string;
    expect(JSON.parse(Buffer.from(jwt.split('.')[0], 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
  });

  it('meets numeric bounds, exclusive bounds and multipleOf together', () => {
    expectValidOnSeeds({
      type: 'object',
      properties: {
        price: { type: 'number', exclusiveMinimum: 0, maximum: 1000, multipleOf: 0.25 },
        // ajv divides: 67.41 / 0.01 is not an integer in floating point, so 67.41 would fail.
        cents: { type: 'number', minimum: 0, maximum: 100, multipleOf: 0.01 },
        count: { type: 'integer', minimum: -5, exclusiveMaximum: 5 },
        ratio: { type: ['number', 'null'], minimum: 0, maximum: 1 },
      },
      required: ['price', 'cents', 'count', 'ratio'],
      additionalProperties: false,
    });
  });

  it('refuses bounds no value can meet, naming where', () => {
    expect(limitError({ type: 'object', properties: { n: { type: 'integer', minimum: 10, maximum: 5 } }, required: ['n'] }).path).toBe('$.n');
    expect(limitError({ type: 'string', minLength: 8, maxLength: 4 }).message).toContain('minLength 8 is more than maxLength 4');
    expect(limitError({ type: 'array', minItems: 3, maxItems: 2 }).message).toContain('minItems 3 is more than maxItems 2');
    expect(limitError({ type: 'number', exclusiveMinimum: 1, maximum: 1 }).message).toContain('no number fits');
  });
});

describe('generateFromSchema on contradictory objects', () => {
  it('refuses a required property that additionalProperties false forbids', () => {
    const error = limitError({ type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'], additionalProperties: false });
    expect(error.message).toBe('the required property "b" is not among the properties and additionalProperties is false: no object fits');
    expect(error.path).toBe('$');
  });
});
