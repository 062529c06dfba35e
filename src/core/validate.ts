/**
 * Small checks surfaces use while parsing request bodies. Each throws an `invalid_request`
 * GatewayError naming the offending field (`param`), so clients learn exactly what is wrong.
 */
import { describeValue } from './describe-value.js';
import { GatewayError } from './errors.js';

export type Json = Record<string, unknown>;

function fail(param: string, message: string): never {
  throw new GatewayError('invalid_request', `${param}: ${message}`, { param });
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export function requireObject(value: unknown, param: string): Json {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(param, `expected an object, got ${describe(value)}`);
  return value as Json;
}

export function requireArray(value: unknown, param: string): unknown[] {
  if (!Array.isArray(value)) fail(param, `expected an array, got ${describe(value)}`);
  return value;
}

export function requireString(value: unknown, param: string): string {
  if (typeof value !== 'string') fail(param, value === undefined ? 'is required' : `expected a string, got ${describe(value)}`);
  return value;
}

export function optionalString(value: unknown, param: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  return requireString(value, param);
}

export function optionalBoolean(value: unknown, param: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') fail(param, `expected a boolean, got ${describe(value)}`);
  return value;
}

export function optionalNumber(value: unknown, param: string, min?: number, max?: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(param, `expected a number, got ${describe(value)}`);
  if (min !== undefined && value < min) fail(param, `must be ≥ ${min}, got ${value}`);
  if (max !== undefined && value > max) fail(param, `must be ≤ ${max}, got ${value}`);
  return value;
}

export function optionalInteger(value: unknown, param: string, min?: number, max?: number): number | undefined {
  const n = optionalNumber(value, param, min, max);
  if (n !== undefined && !Number.isInteger(n)) fail(param, `expected an integer, got ${n}`);
  return n;
}

export function requireInteger(value: unknown, param: string, min?: number, max?: number): number {
  if (value === undefined || value === null) fail(param, 'is required');
  return optionalInteger(value, param, min, max)!;
}

/** A string or a list of strings, normalised to a list; `max` bounds its length. */
export function optionalStringList(value: unknown, param: string, max?: number): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = typeof value === 'string' ? [value] : requireArray(value, param);
  list.forEach((item, i) => requireString(item, `${param}[${i}]`));
  if (max !== undefined && list.length > max) fail(param, `at most ${max} entries are allowed, got ${list.length}`);
  return list as string[];
}

export function oneOf<T extends string>(value: unknown, param: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !allowed.includes(value as T)) {
    fail(param, `must be one of ${allowed.map((a) => `"${a}"`).join(', ')}, got ${describeValue(value)}`);
  }
  return value as T;
}
