/**
 * Gemini's REST API is proto3 JSON: every field may be spelled in camelCase or in its
 * snake_case twin (`inlineData` / `inline_data`). These helpers read either spelling and
 * report the one the client used, so error messages name the field as it was sent.
 */
import type { Json } from '../../core/validate.js';

const snakeNames = new Map<string, string>();

function snakeCase(camel: string): string {
  let snake = snakeNames.get(camel);
  if (snake === undefined) {
    snake = camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    snakeNames.set(camel, snake);
  }
  return snake;
}

/**
 * The key under which `object` carries a field: camelCase or snake_case, whichever is
 * present; for an absent field, the spelling the client used for the object's other keys or
 * for the object itself (the last segment of `at`, its path).
 */
export function protoKey(object: Json, camel: string, at?: string): string {
  if (object[camel] !== undefined) return camel;
  const snake = snakeCase(camel);
  if (object[snake] !== undefined) return snake;
  if (snake === camel) return camel;
  for (const key in object) if (key.includes('_')) return snake;
  if (at?.slice(at.lastIndexOf('.') + 1).includes('_')) return snake;
  return camel;
}

export function protoField(object: Json, camel: string): unknown {
  const value = object[camel];
  return value !== undefined ? value : object[snakeCase(camel)];
}
