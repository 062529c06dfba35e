/**
 * A client's JSON Schema → the subset Anthropic's structured outputs (`output_config.format`)
 * accept: every object closed with `additionalProperties: false`, `oneOf` as `anyOf`, and the
 * keywords Anthropic does not enforce (numeric and string bounds, patterns, most formats,
 * `minItems` above 1, …) moved into the node's description, where the model still reads them.
 * Each kind of change is reported once through `warn`.
 */
import { invalidRequest } from '../../core/errors.js';

type Json = Record<string, unknown>;

/** The nesting a schema may have; the request body's own depth check normally stops far sooner. */
const MAX_DEPTH = 64;

const STRING_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);
/** Keywords that name or document a schema and constrain nothing: dropped without a word. */
const SILENT = new Set(['$schema', '$comment']);
const SCHEMA_MAPS = new Set(['properties', '$defs', 'definitions']);
const SCHEMA_LISTS = new Set(['anyOf', 'allOf']);
const KEPT = new Set(['type', 'description', 'title', 'required', '$ref', 'additionalProperties', 'items', 'enum', 'const', 'oneOf', 'format', 'minItems']);

interface Findings {
  moved: Set<string>;
  oneOf: boolean;
  opened: boolean;
}

export function toAnthropicOutputSchema(schema: Json, warn: (message: string) => void): Json {
  const findings: Findings = { moved: new Set(), oneOf: false, opened: false };
  const out = convert(schema, findings, 0);
  if (findings.moved.size > 0) {
    warn(`response_format.schema: ${[...findings.moved].sort().join(', ')} not enforced by Anthropic, moved into descriptions`);
  }
  if (findings.oneOf) warn('response_format.schema: oneOf sent to Anthropic as anyOf');
  if (findings.opened) warn('response_format.schema: Anthropic requires closed objects, additionalProperties set to false');
  return out;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isPrimitive(value: unknown): boolean {
  return value === null || typeof value !== 'object';
}

function describesObject(node: Json): boolean {
  const type = node.type;
  if (type === undefined) return isObject(node.properties) || node.additionalProperties !== undefined;
  return type === 'object' || (Array.isArray(type) && type.includes('object'));
}

function convert(node: Json, findings: Findings, depth: number): Json {
  if (depth > MAX_DEPTH) throw invalidRequest(`response_format.schema: nested deeper than ${MAX_DEPTH} levels`, 'response_format');
  const out: Json = {};
  const moved: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (SILENT.has(key)) continue;
    if (SCHEMA_MAPS.has(key) && isObject(value)) {
      const map: Json = {};
      for (const [name, inner] of Object.entries(value)) map[name] = isObject(inner) ? convert(inner, findings, depth + 1) : inner;
      out[key] = map;
    } else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) {
      out[key] = value.map((inner) => (isObject(inner) ? convert(inner, findings, depth + 1) : inner));
    } else if (KEPT.has(key) && keep(key, value, out, findings, depth)) {
      // kept (possibly rewritten) by keep()
    } else {
      moved[key] = value;
    }
  }
  if (describesObject(node)) {
    out.type ??= 'object';
    if (node.additionalProperties !== undefined && node.additionalProperties !== false) findings.opened = true;
    out.additionalProperties = false;
  }
  const movedKeys = Object.keys(moved);
  if (movedKeys.length > 0) {
    for (const key of movedKeys) findings.moved.add(key);
    const note = `{${movedKeys.map((key) => `${key}: ${JSON.stringify(moved[key])}`).join(', ')}}`;
    out.description = typeof out.description === 'string' && out.description.length > 0 ? `${out.description}\n\n${note}` : note;
  }
  return out;
}

/** Keeps a supported keyword in `out` (rewritten where Anthropic spells it differently); false moves it to the description. */
function keep(key: string, value: unknown, out: Json, findings: Findings, depth: number): boolean {
  switch (key) {
    case 'oneOf':
      if (!Array.isArray(value)) return false;
      findings.oneOf = true;
      out.anyOf = value.map((inner) => (isObject(inner) ? convert(inner, findings, depth + 1) : inner));
      return true;
    case 'items':
      if (!isObject(value)) return false;
      out.items = convert(value, findings, depth + 1);
      return true;
    case 'additionalProperties':
      // Set to false for every object once all keywords are read.
      return true;
    case 'enum':
      if (!Array.isArray(value) || !value.every(isPrimitive)) return false;
      out.enum = value;
      return true;
    case 'const':
      if (!isPrimitive(value)) return false;
      out.const = value;
      return true;
    case 'format':
      if (typeof value !== 'string' || !STRING_FORMATS.has(value)) return false;
      out.format = value;
      return true;
    case 'minItems':
      if (value !== 0 && value !== 1) return false;
      out.minItems = value;
      return true;
    default:
      out[key] = value;
      return true;
  }
}
