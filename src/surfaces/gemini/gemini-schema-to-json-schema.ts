/**
 * Gemini's `Schema` (an OpenAPI 3.0 subset: upper-case `type`, `nullable`, snake_case
 * keywords allowed) → a plain JSON Schema with lower-case types, as the canonical
 * ToolDefinition.parameters and ResponseFormat.schema expect.
 */
import { GatewayError } from '../../core/errors.js';
import { requireObject, type Json } from '../../core/validate.js';

export function geminiSchemaToJsonSchema(value: unknown, param: string): Json {
  const schema = requireObject(value, param);
  const out: Json = {};
  let nullable = false;
  for (const rawKey of Object.keys(schema)) {
    const item = schema[rawKey];
    if (item === undefined || item === null) continue;
    const key = camelCase(rawKey);
    const at = `${param}.${rawKey}`;
    switch (key) {
      case 'type':
        if (typeof item === 'string') {
          const type = item.toLowerCase();
          if (type !== 'type_unspecified') out.type = type;
        } else if (Array.isArray(item) && item.every((t) => typeof t === 'string')) {
          out.type = item.map((t: string) => t.toLowerCase());
        } else {
          throw new GatewayError('invalid_request', `${at}: expected a type name such as "OBJECT" or "STRING"`, { param: at });
        }
        break;
      case 'properties': {
        const properties = requireObject(item, at);
        const converted: Json = {};
        // Property names are the client's own: never re-cased.
        for (const name of Object.keys(properties)) converted[name] = geminiSchemaToJsonSchema(properties[name], `${at}.${name}`);
        out.properties = converted;
        break;
      }
      case 'items':
        out.items = geminiSchemaToJsonSchema(item, at);
        break;
      case 'additionalProperties':
        out.additionalProperties = typeof item === 'boolean' ? item : geminiSchemaToJsonSchema(item, at);
        break;
      case 'anyOf':
        if (!Array.isArray(item)) throw new GatewayError('invalid_request', `${at}: expected an array of schemas`, { param: at });
        out.anyOf = item.map((s, i) => geminiSchemaToJsonSchema(s, `${at}[${i}]`));
        break;
      case 'nullable':
        nullable = item === true;
        break;
      // Gemini-only ordering hint and its `format: "enum"` marker mean nothing in JSON Schema.
      case 'propertyOrdering':
        break;
      case 'format':
        if (item !== 'enum') out.format = item;
        break;
      default:
        out[key] = item;
    }
  }
  if (nullable) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.anyOf)) out.anyOf = [...out.anyOf, { type: 'null' }];
  }
  return out;
}

function camelCase(key: string): string {
  return key.indexOf('_') === -1 ? key : key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
