/**
 * A value valid against a JSON Schema (or Gemini's OpenAPI-subset Schema: upper-case types,
 * `nullable`), made deterministically, for the fake upstreams' structured answers. Covers what
 * the tests' schemas use: local `$ref`s, `anyOf`/`oneOf` (the first branch), `allOf`, `const`,
 * `enum`, type lists, every declared property, `minItems`, string length and numeric bounds,
 * and the common string formats. Depth is bounded: past it, null.
 */
type Json = Record<string, unknown>;

const MAX_DEPTH = 16;

const FORMATS: Record<string, string> = {
  'date-time': '2025-01-02T03:04:05Z',
  date: '2025-01-02',
  time: '03:04:05Z',
  email: 'someone@example.com',
  uri: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  hostname: 'example.com',
};

export function schemaInstance(schema: unknown, root: unknown = schema, depth = 0): unknown {
  if (schema === true || schema === undefined) return 'example';
  if (!schema || typeof schema !== 'object' || depth > MAX_DEPTH) return null;
  const s = schema as Json;
  if (typeof s.$ref === 'string') {
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(s.$ref);
    const defs = match ? ((root as Json)[match[1]] as Json | undefined) : undefined;
    return schemaInstance(defs?.[match![2]], root, depth + 1);
  }
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const branches = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) return schemaInstance(branches[0], root, depth + 1);
  if (Array.isArray(s.allOf)) {
    const merged: Json = {};
    for (const part of s.allOf) Object.assign(merged, schemaInstance(part, root, depth + 1));
    return merged;
  }
  const types = (Array.isArray(s.type) ? s.type : [s.type]).map((t) => (typeof t === 'string' ? t.toLowerCase() : t));
  const type = types.find((t) => t !== 'null') ?? (types.includes('null') ? 'null' : s.properties ? 'object' : undefined);
  switch (type) {
    case 'string': {
      if (typeof s.format === 'string' && FORMATS[s.format]) return FORMATS[s.format];
      const min = typeof s.minLength === 'number' ? s.minLength : 0;
      const max = typeof s.maxLength === 'number' ? s.maxLength : Number.POSITIVE_INFINITY;
      const text = 'example'.padEnd(min, 'x');
      return text.slice(0, Math.max(min, Math.min(text.length, max)));
    }
    case 'integer':
    case 'number': {
      const min = typeof s.minimum === 'number' ? s.minimum : typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum + 1 : undefined;
      const max = typeof s.maximum === 'number' ? s.maximum : typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum - 1 : undefined;
      let value = type === 'integer' ? 42 : 4.5;
      if (min !== undefined && value < min) value = type === 'integer' ? Math.ceil(min) : min;
      if (max !== undefined && value > max) value = type === 'integer' ? Math.floor(max) : max;
      return value;
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array': {
      const count = Math.max(1, typeof s.minItems === 'number' ? s.minItems : 0);
      return Array.from({ length: Math.min(count, 8) }, () => schemaInstance(s.items, root, depth + 1));
    }
    case 'object': {
      const out: Json = {};
      for (const [key, inner] of Object.entries((s.properties as Json | undefined) ?? {})) out[key] = schemaInstance(inner, root, depth + 1);
      return out;
    }
    default:
      return 'example';
  }
}
