/**
 * A client's JSON Schema → Gemini's `Schema`, the OpenAPI 3.0 subset `responseSchema` and
 * function `parameters` take on models without JSON Schema support: upper-case types,
 * `nullable` instead of `null` types, string-only enums, and no `$ref`, `additionalProperties`
 * or `oneOf`. Local `$ref`s are inlined (a recursive one is cut after a few levels); what the
 * subset cannot say is dropped or approximated, and each kind of change is reported once
 * through `warn`. The output is bounded: a schema that would inline to more than MAX_KEYWORDS
 * keywords is refused.
 */
import { invalidRequest } from '../../core/errors.js';

type Json = Record<string, unknown>;

/** Keywords one converted schema may hold once `$ref`s are inlined (bounds the work too). */
export const MAX_KEYWORDS = 10_000;
/** How many times one definition may be inlined inside itself before recursion is cut. */
const MAX_RECURSION = 2;
const MAX_DEPTH = 64;

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);
const FORMATS: Record<string, Set<string>> = {
  STRING: new Set(['enum', 'date-time']),
  NUMBER: new Set(['float', 'double']),
  INTEGER: new Set(['int32', 'int64']),
};
/** Kept as they are: the subset has them with the same meaning. */
const PLAIN = new Set([
  'description',
  'title',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'pattern',
  'default',
  'example',
  'nullable',
  'propertyOrdering',
]);
/** Say nothing the output needs: dropped without a word. */
const SILENT = new Set(['$schema', '$id', '$comment', '$defs', 'definitions']);

interface Context {
  root: Json;
  param: string;
  keywords: number;
  dropped: Set<string>;
  notes: Set<string>;
  /** Definitions being inlined on the current path, with how often. */
  expanding: Map<string, number>;
}

export function toGeminiSchema(schema: Json, param: string, warn: (message: string) => void): Json {
  const context: Context = { root: schema, param, keywords: 0, dropped: new Set(), notes: new Set(), expanding: new Map() };
  const out = convert(schema, context, 0);
  if (context.dropped.size > 0) warn(`${param}: ${[...context.dropped].sort().join(', ')} not supported by Gemini's OpenAPI schema subset, dropped`);
  for (const note of context.notes) warn(`${param}: ${note}`);
  return out;
}

function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function convert(node: Json, context: Context, depth: number): Json {
  context.keywords += Object.keys(node).length + 1;
  if (context.keywords > MAX_KEYWORDS) {
    throw invalidRequest(
      `${context.param}: too large for Gemini's OpenAPI schema subset once $refs are inlined (over ${MAX_KEYWORDS} keywords)`,
      context.param,
    );
  }
  if (depth > MAX_DEPTH) throw invalidRequest(`${context.param}: nested deeper than ${MAX_DEPTH} levels`, context.param);
  if (typeof node.$ref === 'string') return inlineRef(node, node.$ref, context, depth);

  const out: Json = {};
  let nullable = false;
  for (const [key, value] of Object.entries(node)) {
    if (SILENT.has(key)) continue;
    if (PLAIN.has(key)) {
      if (key === 'nullable') nullable ||= value === true;
      else out[key] = value;
      continue;
    }
    switch (key) {
      case 'type':
        nullable = setType(value, out, context) || nullable;
        break;
      case 'properties':
        if (isObject(value)) {
          const properties: Json = {};
          for (const [name, inner] of Object.entries(value)) if (isObject(inner)) properties[name] = convert(inner, context, depth + 1);
          out.properties = properties;
        } else context.dropped.add(key);
        break;
      case 'required':
        if (Array.isArray(value)) out.required = value.filter((name) => typeof name === 'string');
        break;
      case 'items':
        if (isObject(value)) out.items = convert(value, context, depth + 1);
        else context.dropped.add('items (tuple)');
        break;
      case 'examples':
        if (Array.isArray(value) && value.length > 0 && out.example === undefined) out.example = value[0];
        break;
      case 'additionalProperties':
        // The subset only generates the properties it declares, which is what `false` says.
        if (value !== false) context.dropped.add(key);
        break;
      case 'enum':
        nullable = setEnum(value, out, context) || nullable;
        break;
      case 'const':
        if (typeof value === 'string') {
          out.enum = [value];
          out.type ??= 'STRING';
        } else if (value === null) nullable = true;
        else context.dropped.add(key);
        break;
      case 'anyOf':
      case 'oneOf':
        if (Array.isArray(value)) {
          if (key === 'oneOf') context.notes.add('oneOf sent as anyOf');
          nullable = setAnyOf(value, out, context, depth) || nullable;
        } else context.dropped.add(key);
        break;
      case 'allOf':
        if (Array.isArray(value)) mergeAllOf(value, out, context, depth);
        else context.dropped.add(key);
        break;
      case 'format':
        break;
      default:
        context.dropped.add(key);
    }
  }
  if (typeof node.format === 'string') {
    const allowed = typeof out.type === 'string' ? FORMATS[out.type] : undefined;
    if (allowed?.has(node.format)) out.format = node.format;
    else context.dropped.add(`format ${node.format}`);
  }
  if (out.type === undefined && out.anyOf === undefined) {
    if (isObject(out.properties)) out.type = 'OBJECT';
    else if (out.items !== undefined) out.type = 'ARRAY';
  }
  if (nullable) out.nullable = true;
  return out;
}

/** Sets `out.type`; answers whether the type list allowed null. */
function setType(value: unknown, out: Json, context: Context): boolean {
  const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
  const known = list.filter((type) => TYPES.has(type));
  if (known.length !== list.length || list.length === 0) context.dropped.add('type');
  const nullable = known.includes('null');
  const types = known.filter((type) => type !== 'null');
  if (types.length === 1) out.type = types[0].toUpperCase();
  else if (types.length > 1) {
    out.anyOf = types.map((type) => ({ type: type.toUpperCase() }));
    context.notes.add('a list of types sent as anyOf');
  } else if (nullable) out.type = 'NULL';
  return nullable && types.length > 0;
}

/** The subset's enums are strings: null becomes `nullable`, other values cannot be said. */
function setEnum(value: unknown, out: Json, context: Context): boolean {
  if (!Array.isArray(value)) {
    context.dropped.add('enum');
    return false;
  }
  const strings = value.filter((item): item is string => typeof item === 'string');
  const nullable = value.includes(null);
  if (strings.length + (nullable ? 1 : 0) !== value.length) {
    context.dropped.add('enum (non-string values)');
    return false;
  }
  if (strings.length > 0) {
    out.enum = strings;
    out.type ??= 'STRING';
  }
  return nullable;
}

/** `anyOf`; a `null` branch becomes `nullable`, and a single remaining branch stands alone. */
function setAnyOf(branches: unknown[], out: Json, context: Context, depth: number): boolean {
  const converted = branches.filter(isObject).map((branch) => convert(branch, context, depth + 1));
  const rest = converted.filter((branch) => branch.type !== 'NULL');
  const nullable = rest.length < converted.length;
  if (rest.length === 1) Object.assign(out, { ...rest[0], ...withoutUndefined(out) });
  else if (rest.length > 1) out.anyOf = rest;
  return nullable;
}

/** `allOf` has no counterpart: the branches' properties, requirements and bounds are merged into one schema. */
function mergeAllOf(branches: unknown[], out: Json, context: Context, depth: number): void {
  context.notes.add('allOf merged into one schema');
  for (const branch of branches.filter(isObject).map((inner) => convert(inner, context, depth + 1))) {
    for (const [key, value] of Object.entries(branch)) {
      if (key === 'properties' && isObject(value)) out.properties = { ...(isObject(out.properties) ? out.properties : {}), ...value };
      else if (key === 'required' && Array.isArray(value)) out.required = [...new Set([...(Array.isArray(out.required) ? out.required : []), ...value])];
      else if (out[key] === undefined) out[key] = value;
    }
  }
}

function withoutUndefined(value: Json): Json {
  return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined));
}

/** `#/$defs/Name` or `#/definitions/Name` (JSON-pointer escapes allowed); siblings of `$ref` refine the target. */
function inlineRef(node: Json, ref: string, context: Context, depth: number): Json {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const name = match ? match[2].replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
  const definitions = match ? context.root[match[1]] : undefined;
  const target = name !== undefined && isObject(definitions) ? definitions[name] : undefined;
  const { $ref: _ref, ...siblings } = node;
  if (!isObject(target)) {
    context.dropped.add(`$ref ${ref}`);
    return convert(siblings, context, depth);
  }
  const seen = context.expanding.get(ref) ?? 0;
  if (seen >= MAX_RECURSION) {
    context.notes.add(`recursive $ref ${ref} cut after ${MAX_RECURSION} levels (a nullable string in its place)`);
    // The subset has no "any" and refuses objects without properties: the model is offered null.
    return { ...convert(siblings, context, depth), type: 'STRING', nullable: true, description: `omitted: ${ref} nests too deeply` };
  }
  context.expanding.set(ref, seen + 1);
  try {
    return convert({ ...target, ...siblings }, context, depth + 1);
  } finally {
    context.expanding.set(ref, seen);
  }
}
