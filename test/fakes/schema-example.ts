/**
 * The arguments the fake Anthropic and Gemini upstreams put in a tool call: the first enum
 * value, else a fixed value per JSON-schema type (Gemini's upper-case type names included).
 */
type Json = Record<string, unknown>;

export function schemaExample(schema: unknown): unknown {
  const s = (schema ?? {}) as Json;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  switch (typeof s.type === 'string' ? s.type.toLowerCase() : s.type) {
    case 'string':
      return 'example';
    case 'integer':
      return 1;
    case 'number':
      return 42;
    case 'boolean':
      return true;
    case 'array':
      return [schemaExample(s.items)];
    case 'object':
    case undefined: {
      const out: Json = {};
      for (const [key, inner] of Object.entries((s.properties as Json) ?? {})) out[key] = schemaExample(inner);
      return out;
    }
    default:
      return null;
  }
}
