/**
 * Builds a value that satisfies a JSON Schema, deterministically from a Prng: the arguments
 * of simulated tool calls. Covers the keywords tool schemas use in practice (types, object
 * and array shapes, enum/const, bounds, lengths, formats, simple patterns, combinators and
 * local `$ref`s); unknown keywords are ignored. Every piece of work is bounded (see
 * generation-limits.ts): minimums beyond the bounds throw a GenerationLimitError naming the
 * field, maximums beyond them are clamped.
 */
import type { Prng } from '../shared/prng.js';
import { SANDBOX_WORDS } from '../shared/sandbox-words.js';
import { type Constraints, readDescribedConstraints } from './described-constraints.js';
import { generateFromPatterns } from './generate-from-patterns.js';
import { generateStringFormat } from './generate-string-format.js';
import {
  createGenerationBudget,
  GenerationLimitError,
  MAX_ITEMS,
  MAX_PATTERN_LENGTH,
  MAX_PROPERTIES,
  MAX_STRING_LENGTH,
  spendChars,
  spendStep,
  type GenerationBudget,
} from './generation-limits.js';

type Schema = Record<string, unknown>;

interface Context {
  root: unknown;
  rng: Prng;
  budget: GenerationBudget;
  /** Sizes of client-given values (const, default, examples, enum members) already measured. */
  sizes: WeakMap<object, number>;
  /** Whether a subschema holds a `$ref` (may recurse), already looked up. */
  refs: WeakMap<object, boolean>;
  /** Constraints read from descriptions, by description. */
  described: Map<string, Constraints | undefined>;
}

/** The patterns an `allOf` merged besides `pattern` (a symbol: never a client's keyword). */
const MORE_PATTERNS = Symbol('more patterns');
/** Nodes looked at to tell whether a branch holds a `$ref`; a bigger branch counts as recursive. */
const MAX_REF_SCAN = 500;

/**
 * Past this depth optional properties and array items are left out, and unions and nullable
 * containers take a branch without `$ref` (or null), so recursion ends.
 */
const SHALLOW_DEPTH = 3;
/** Past this depth only null is produced: a schema whose required recursion never ends. */
const MAX_DEPTH = 24;
const OPTIONAL_PROPERTY_CHANCE = 0.6;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function count(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : fallback;
}

function decodePointerSegment(raw: string): string {
  let key = raw;
  try {
    key = decodeURIComponent(raw);
  } catch {
    // A malformed escape is taken literally.
  }
  return key.replace(/~1/g, '/').replace(/~0/g, '~');
}

function lookupRef(ref: string, root: unknown): Schema {
  if (ref === '#') return isSchema(root) ? root : {};
  if (!ref.startsWith('#/') || ref.length > MAX_PATTERN_LENGTH) return {};
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodePointerSegment(raw);
    if (!isSchema(node) && !Array.isArray(node)) return {};
    node = (node as Record<string, unknown>)[key];
  }
  return isSchema(node) ? node : node === false ? { not: {} } : {};
}

function union(a: unknown, b: unknown): string[] | undefined {
  const left = Array.isArray(a) ? a : [];
  const right = Array.isArray(b) ? b : [];
  if (left.length === 0 && right.length === 0) return undefined;
  return [...new Set([...left, ...right].filter((k): k is string => typeof k === 'string'))];
}

function tighter(a: unknown, b: unknown, pick: (x: number, y: number) => number): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return pick(a, b);
  return typeof a === 'number' ? a : typeof b === 'number' ? b : undefined;
}

function sizeOf(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  return isSchema(value) ? Object.keys(value).length : 0;
}

/** Combines two schemas that must both hold (allOf members, `$ref` siblings, a oneOf branch and its parent). */
function merge(a: Schema, b: Schema, ctx: Context, path: string): Schema {
  spendStep(
    ctx.budget,
    path,
    1 + sizeOf(a) + sizeOf(b) + sizeOf(a.properties) + sizeOf(b.properties) + sizeOf(a.enum) + sizeOf(b.enum) + sizeOf(a.required) + sizeOf(b.required),
  );
  const out: Schema = { ...a, ...b };
  if (isSchema(a.properties) && isSchema(b.properties)) {
    const properties: Schema = { ...a.properties };
    for (const [key, sub] of Object.entries(b.properties)) {
      properties[key] = key in properties ? { allOf: [properties[key], sub] } : sub;
    }
    out.properties = properties;
  }
  const required = union(a.required, b.required);
  if (required) out.required = required;
  for (const key of ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']) {
    const value = tighter(a[key], b[key], Math.max);
    if (value !== undefined) out[key] = value;
  }
  for (const key of ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']) {
    const value = tighter(a[key], b[key], Math.min);
    if (value !== undefined) out[key] = value;
  }
  if (Array.isArray(a.enum) && Array.isArray(b.enum)) {
    const right = new Set(b.enum.map((v) => JSON.stringify(v)));
    const both = a.enum.filter((v) => right.has(JSON.stringify(v)));
    if (both.length > 0) out.enum = both;
  }
  if (a.type !== undefined && b.type !== undefined) {
    const left = Array.isArray(a.type) ? a.type : [a.type];
    const right = new Set(Array.isArray(b.type) ? b.type : [b.type]);
    // `integer` is a `number`, so it survives an intersection with `number`.
    const both = left.filter((t) => right.has(t) || (t === 'integer' && right.has('number')));
    if (right.has('integer') && left.includes('number') && !both.includes('integer')) both.push('integer');
    if (both.length > 0) out.type = both.length === 1 ? both[0] : both;
  }
  if (a.additionalProperties === false || b.additionalProperties === false) out.additionalProperties = false;
  const patterns = [...new Set([...patternsOf(a), ...patternsOf(b)])];
  if (patterns.length > 0) {
    out.pattern = patterns[0];
    (out as Record<symbol, unknown>)[MORE_PATTERNS] = patterns.slice(1);
  }
  return out;
}

/** Follows `$ref`s and folds `allOf` so the result is one plain schema. */
function resolve(schema: Schema, ctx: Context, path: string, hops = 0): Schema {
  let current = schema;
  while (typeof current.$ref === 'string' && hops < 32) {
    const { $ref, ...siblings } = current;
    current = merge(lookupRef($ref as string, ctx.root), siblings, ctx, path);
    hops++;
  }
  if (Array.isArray(current.allOf) && hops < 32) {
    const { allOf, ...rest } = current;
    let merged = resolve(rest, ctx, path, hops + 1);
    for (const member of allOf) if (isSchema(member)) merged = merge(merged, resolve(member, ctx, path, hops + 1), ctx, path);
    current = merged;
  }
  return current;
}

/** A client-given value is returned as is, but its size still counts against the budget. */
function given(value: unknown, ctx: Context, path: string): unknown {
  spendChars(ctx.budget, path, measure(value, ctx));
  return value;
}

function measure(value: unknown, ctx: Context): number {
  if (typeof value === 'string') return value.length;
  if (typeof value !== 'object' || value === null) return 8;
  const known = ctx.sizes.get(value);
  if (known !== undefined) return known;
  const size = JSON.stringify(value)?.length ?? 0;
  ctx.sizes.set(value, size);
  return size;
}

function patternsOf(schema: Schema): string[] {
  const more = (schema as Record<symbol, unknown>)[MORE_PATTERNS];
  return [...(typeof schema.pattern === 'string' ? [schema.pattern] : []), ...(Array.isArray(more) ? (more as string[]) : [])];
}

/** Whether `schema` holds a `$ref` anywhere (without following it): a branch that may recurse. */
function holdsRef(schema: unknown, ctx: Context): boolean {
  if (!isSchema(schema)) return false;
  const known = ctx.refs.get(schema);
  if (known !== undefined) return known;
  const stack: unknown[] = [schema];
  let found = false;
  for (let seen = 0; stack.length > 0 && !found; seen++) {
    if (seen >= MAX_REF_SCAN) {
      found = true;
      break;
    }
    const node = stack.pop();
    if (Array.isArray(node)) stack.push(...node);
    else if (isSchema(node)) {
      if (typeof node.$ref === 'string') found = true;
      else for (const value of Object.values(node)) if (typeof value === 'object' && value !== null) stack.push(value);
    }
  }
  ctx.refs.set(schema, found);
  return found;
}

/** Near the top a union takes a non-null branch; deeper, one that cannot recurse. */
function chooseBranch(branches: unknown[], ctx: Context, depth: number): unknown {
  if (depth >= SHALLOW_DEPTH) {
    const finite = branches.filter((b) => !holdsRef(b, ctx));
    if (finite.length > 0) return ctx.rng.pick(finite);
  }
  const concrete = branches.filter((b) => !isNullOnly(b));
  return ctx.rng.pick(concrete.length > 0 ? concrete : branches);
}

function isNullOnly(schema: unknown): boolean {
  return isSchema(schema) && (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.length === 1 && schema.type[0] === 'null'));
}

function chooseType(schema: Schema, rng: Prng, depth: number): string {
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type) && type.length > 0) {
    // Nullable fields are filled: that is what a model usually does and what clients test.
    // Deep down a nullable container is null, which ends a recursion through it.
    const concrete = type.filter((t) => t !== 'null');
    if (depth >= SHALLOW_DEPTH && type.includes('null') && concrete.some((t) => t === 'object' || t === 'array')) return 'null';
    return String(concrete.length > 0 ? rng.pick(concrete) : 'null');
  }
  if ('properties' in schema || 'required' in schema || 'additionalProperties' in schema || 'minProperties' in schema) return 'object';
  if ('items' in schema || 'prefixItems' in schema || 'minItems' in schema || 'maxItems' in schema) return 'array';
  if ('minimum' in schema || 'maximum' in schema || 'exclusiveMinimum' in schema || 'exclusiveMaximum' in schema || 'multipleOf' in schema) return 'number';
  return 'string';
}

function words(rng: Prng, min: number, max: number): string {
  let text = rng.pick(SANDBOX_WORDS);
  const wanted = rng.int(1, 3);
  for (let i = 1; i < wanted; i++) text += ` ${rng.pick(SANDBOX_WORDS)}`;
  const target = Math.min(Math.max(text.length, min), max);
  while (text.length < target) text += ` ${rng.pick(SANDBOX_WORDS)}`;
  text = text.slice(0, target);
  return text.endsWith(' ') ? `${text.slice(0, -1)}x` : text;
}

function generateString(schema: Schema, ctx: Context, path: string): string {
  const text = generateBoundedString(schema, ctx.rng, path);
  spendChars(ctx.budget, path, text.length);
  return text;
}

function generateBoundedString(schema: Schema, rng: Prng, path: string): string {
  const min = count(schema.minLength, 0);
  if (min > MAX_STRING_LENGTH) {
    throw new GenerationLimitError(`minLength ${min} is more than the ${MAX_STRING_LENGTH} characters the sandbox generates in a string`, path);
  }
  if (min > count(schema.maxLength, Infinity)) {
    throw new GenerationLimitError(`minLength ${min} is more than maxLength ${count(schema.maxLength, Infinity)}: no string fits`, path);
  }
  const max = Math.min(count(schema.maxLength, Infinity), MAX_STRING_LENGTH);
  const patterns = patternsOf(schema);
  if (typeof schema.format === 'string') {
    const formatted = generateStringFormat(schema.format, rng);
    if (formatted !== undefined && formatted.length >= min && formatted.length <= max && patterns.every((p) => safeTest(p, formatted))) {
      return formatted;
    }
  }
  if (patterns.length > 0) {
    let matched: string | undefined;
    try {
      matched = generateFromPatterns(patterns, rng, { min, max });
    } catch (error) {
      if (error instanceof GenerationLimitError) throw new GenerationLimitError(error.message, path);
      throw error;
    }
    if (matched !== undefined) return matched;
  }
  return words(rng, min, max);
}

function safeTest(pattern: string, value: string): boolean {
  if (pattern.length > MAX_PATTERN_LENGTH) return false;
  try {
    return new RegExp(pattern, 'u').test(value);
  } catch {
    return false;
  }
}

function decimals(step: number): number {
  const text = String(step);
  const exp = /e-(\d+)$/.exec(text);
  if (exp) return Math.min(20, Number(exp[1]) + (text.split('e')[0].split('.')[1]?.length ?? 0));
  return Math.min(20, text.split('.')[1]?.length ?? 0);
}

/** The smallest multiple of `step` that is an integer (for integers with a fractional multipleOf). */
function integerStep(step: number): number {
  for (let k = 1; k <= 1000; k++) {
    const candidate = Number((step * k).toFixed(decimals(step)));
    if (Number.isInteger(candidate)) return candidate;
  }
  return 1;
}

interface Bounds {
  lo: number;
  hi: number;
  loExclusive: boolean;
  hiExclusive: boolean;
}

function numberBounds(schema: Schema): Bounds {
  const b: Bounds = {
    lo: typeof schema.minimum === 'number' ? schema.minimum : -Infinity,
    hi: typeof schema.maximum === 'number' ? schema.maximum : Infinity,
    loExclusive: schema.exclusiveMinimum === true, // draft-04 boolean form
    hiExclusive: schema.exclusiveMaximum === true,
  };
  if (typeof schema.exclusiveMinimum === 'number' && schema.exclusiveMinimum >= b.lo) [b.lo, b.loExclusive] = [schema.exclusiveMinimum, true];
  if (typeof schema.exclusiveMaximum === 'number' && schema.exclusiveMaximum <= b.hi) [b.hi, b.hiExclusive] = [schema.exclusiveMaximum, true];
  return b;
}

function within(value: number, b: Bounds): boolean {
  return Number.isFinite(value) && (b.loExclusive ? value > b.lo : value >= b.lo) && (b.hiExclusive ? value < b.hi : value <= b.hi);
}

/** A modest window of the allowed range to draw from: within [0, 100] when it overlaps, else 100 wide at the bound nearest 0. */
function window(b: Bounds): Bounds {
  if (b.lo <= 0 && b.hi > 0) {
    return { lo: Math.max(0, b.lo), hi: Math.min(100, b.hi), loExclusive: b.lo === 0 && b.loExclusive, hiExclusive: b.hi <= 100 && b.hiExclusive };
  }
  if (b.hi - b.lo <= 100) return b;
  if (b.hi <= 0) return { lo: b.hi - 100, hi: b.hi, loExclusive: false, hiExclusive: b.hiExclusive };
  return { lo: b.lo, hi: b.lo + 100, loExclusive: b.loExclusive, hiExclusive: false };
}

function generateNumber(schema: Schema, integer: boolean, rng: Prng, path: string): number {
  const bounds = numberBounds(schema);
  if (bounds.lo > bounds.hi || (bounds.lo === bounds.hi && (bounds.loExclusive || bounds.hiExclusive))) {
    throw new GenerationLimitError(`the lower bound ${bounds.lo} is not below the upper bound ${bounds.hi}: no number fits`, path);
  }
  const { lo, hi, loExclusive, hiExclusive } = window(bounds);
  const multipleOf = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  let value: number;
  if (integer || multipleOf !== undefined) {
    const step = integer ? (multipleOf === undefined ? 1 : integerStep(multipleOf)) : (multipleOf as number);
    let kLo = Math.ceil(lo / step);
    if (loExclusive && kLo * step <= lo) kLo++;
    let kHi = Math.floor(hi / step);
    if (hiExclusive && kHi * step >= hi) kHi--;
    const multiple = (k: number): number => Number((k * step).toFixed(decimals(step)));
    const k = kLo <= kHi ? rng.int(kLo, kHi) : kLo;
    value = multiple(k);
    // Validators divide (67.41 / 0.01 is 6740.999…): prefer a nearby multiple the division finds exact.
    for (let next = k + 1, tries = 0; !Number.isInteger(value / step) && next <= kHi && tries < 16; next++, tries++) value = multiple(next);
  } else {
    value = Number((lo + rng.next() * (hi - lo)).toFixed(2));
  }
  if (within(value, bounds)) return value;
  // Only for ranges float arithmetic cannot step through (tiny, or at enormous magnitudes).
  const middle = bounds.lo / 2 + bounds.hi / 2;
  return integer && Number.isFinite(middle) ? Math.round(middle) : middle;
}

function generateArray(schema: Schema, ctx: Context, depth: number, path: string): unknown[] {
  const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
  const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items;
  const min = count(schema.minItems, 0);
  if (min > MAX_ITEMS) {
    throw new GenerationLimitError(`minItems ${min} is more than the ${MAX_ITEMS} items the sandbox generates in an array`, path);
  }
  if (min > count(schema.maxItems, Infinity)) {
    throw new GenerationLimitError(`minItems ${min} is more than maxItems ${count(schema.maxItems, Infinity)}: no array fits`, path);
  }
  const max = Math.min(count(schema.maxItems, Infinity), MAX_ITEMS);
  const natural = depth >= SHALLOW_DEPTH ? 0 : ctx.rng.int(1, 3);
  const length = Math.min(Math.max(natural, min), max, rest === false ? prefix.length : Infinity);
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < length; i++) {
    const itemSchema = i < prefix.length ? prefix[i] : rest;
    const itemPath = `${path}[${i}]`;
    let value = generate(itemSchema, ctx, depth + 1, itemPath);
    if (schema.uniqueItems === true) {
      for (let retry = 0; retry < 10 && seen.has(JSON.stringify(value)); retry++) value = generate(itemSchema, ctx, depth + 1, itemPath);
      // Few distinct values (a small enum): a shorter array beats a repeated item.
      if (seen.has(JSON.stringify(value)) && out.length >= min) break;
      seen.add(JSON.stringify(value));
    }
    out.push(value);
  }
  return out;
}

function propertyPath(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function generateObject(schema: Schema, ctx: Context, depth: number, path: string): Record<string, unknown> {
  const { rng } = ctx;
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === 'string') : []);
  const additional = schema.additionalProperties;
  const extraSchema = isSchema(additional) ? additional : {};
  // A null prototype keeps a property named `__proto__` an ordinary key.
  const out: Record<string, unknown> = Object.create(null);
  let size = 0;
  const put = (key: string, value: unknown): void => {
    if (!(key in out)) size++;
    out[key] = value;
  };
  const optionalChance = depth >= SHALLOW_DEPTH ? 0 : OPTIONAL_PROPERTY_CHANCE;
  for (const [key, sub] of Object.entries(properties)) {
    if (required.has(key) || rng.chance(optionalChance)) put(key, generate(sub, ctx, depth + 1, propertyPath(path, key)));
  }
  for (const key of required) {
    if (key in out) continue;
    if (additional === false) {
      throw new GenerationLimitError(
        `the required property ${JSON.stringify(key)} is not among the properties and additionalProperties is false: no object fits`,
        path,
      );
    }
    put(key, generate(extraSchema, ctx, depth + 1, propertyPath(path, key)));
  }
  const minProperties = count(schema.minProperties, 0);
  const named = Math.max(Object.keys(properties).length, required.size);
  if (minProperties > named && minProperties > MAX_PROPERTIES) {
    throw new GenerationLimitError(`minProperties ${minProperties} is more than the ${MAX_PROPERTIES} properties the sandbox generates in an object`, path);
  }
  const maxProperties = count(schema.maxProperties, Infinity);
  const isMap = Object.keys(properties).length === 0 && isSchema(additional);
  const wanted = Math.max(minProperties, isMap && depth < SHALLOW_DEPTH ? rng.int(1, 2) : 0);
  for (const key of Object.keys(properties)) {
    if (size >= wanted) break;
    if (!(key in out)) put(key, generate(properties[key], ctx, depth + 1, propertyPath(path, key)));
  }
  for (let n = 0; size < wanted && additional !== false && n < wanted + 8; n++) {
    const key = extraKey(schema.propertyNames, n, ctx, depth, path);
    if (key === undefined) break;
    if (!(key in out)) put(key, generate(extraSchema, ctx, depth + 1, propertyPath(path, key)));
  }
  for (const key of Object.keys(out)) {
    if (size <= maxProperties) break;
    if (!required.has(key)) {
      delete out[key];
      size--;
    }
  }
  return out;
}

/** The name of an extra property: from `propertyNames` when given (a record's key schema), else a word. */
function extraKey(propertyNames: unknown, n: number, ctx: Context, depth: number, path: string): string | undefined {
  if (!isSchema(propertyNames)) return `${ctx.rng.pick(SANDBOX_WORDS)}_${n}`;
  const key = generate({ type: 'string', ...propertyNames }, ctx, depth + 1, `${path}{key}`);
  return typeof key === 'string' ? key : undefined;
}

/** The schema with the constraints its description states (and its keywords do not) added. */
function withDescribedConstraints(schema: Schema, ctx: Context): Schema {
  if (typeof schema.description !== 'string') return schema;
  let found = ctx.described.get(schema.description);
  if (!ctx.described.has(schema.description)) {
    found = readDescribedConstraints(schema.description);
    ctx.described.set(schema.description, found);
  }
  return found ? { ...found, ...schema } : schema;
}

function generate(input: unknown, ctx: Context, depth: number, path: string): unknown {
  if (depth > MAX_DEPTH) return null;
  if (input === false) return null;
  spendStep(ctx.budget, path);
  const schema = withDescribedConstraints(resolve(isSchema(input) ? input : {}, ctx, path), ctx);
  const { rng } = ctx;
  if ('const' in schema) return given(schema.const, ctx, path);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return given(rng.pick(schema.enum), ctx, path);
  const branches = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (branches && branches.length > 0) {
    const { oneOf: _oneOf, anyOf: _anyOf, ...parent } = schema;
    const branch = chooseBranch(branches, ctx, depth);
    return generate(merge(parent, resolve(isSchema(branch) ? branch : {}, ctx, path), ctx, path), ctx, depth + 1, path);
  }
  if ('default' in schema) return given(schema.default, ctx, path);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return given(schema.examples[0], ctx, path);
  switch (chooseType(schema, rng, depth)) {
    case 'object':
      return generateObject(schema, ctx, depth, path);
    case 'array':
      return generateArray(schema, ctx, depth, path);
    case 'integer':
      return generateNumber(schema, true, rng, path);
    case 'number':
      return generateNumber(schema, false, rng, path);
    case 'boolean':
      return rng.chance(0.5);
    case 'null':
      return null;
    default:
      return generateString(schema, ctx, path);
  }
}

/**
 * A value satisfying `schema`; the same Prng state always gives the same value. Throws a
 * GenerationLimitError when the schema needs more than the sandbox's bounds; pass one budget
 * to several calls to bound them together.
 */
export function generateFromSchema(schema: unknown, rng: Prng, budget: GenerationBudget = createGenerationBudget()): unknown {
  return generate(schema, { root: schema, rng, budget, sizes: new WeakMap(), refs: new WeakMap(), described: new Map() }, 0, '$');
}
