/**
 * What a channel's `options` become on an admin create or change: `null` removes an option, and a
 * change that gives options replaces them as a whole except for the secret ones it leaves out,
 * which stay (as the key stays when a change gives no `apiKey`), so a form that never saw a
 * secret's value does not erase it.
 */
import type { ChannelDefinition } from '../config/types.js';
import { secretOptionNames } from './channel-view.js';

export const MAX_OPTIONS = 32;
const MAX_OPTION_CHARS = 2048;
const MAX_LIST_ITEMS = 200;
const MAX_ITEM_CHARS = 200;

const isFlatScalar = (value: unknown, maxChars: number) =>
  (typeof value === 'string' && value.length <= maxChars) || (typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean';

/**
 * Why the options given through the admin API are not flat and bounded (undefined when they are):
 * every provider option is a string, a number, true or false, or a short list of those; `null`
 * (removal) passes. Reads at most `MAX_OPTIONS` values (the route's schema bounds the count first).
 */
export function flatOptionsError(options: Record<string, unknown>): string | undefined {
  for (const [name, value] of Object.entries(options).slice(0, MAX_OPTIONS)) {
    if (value === null || isFlatScalar(value, MAX_OPTION_CHARS)) continue;
    if (Array.isArray(value) && value.length <= MAX_LIST_ITEMS && value.every((item) => isFlatScalar(item, MAX_ITEM_CHARS))) continue;
    return `channel.options.${name} must be a string (at most ${MAX_OPTION_CHARS} characters), a number, true or false, or a list of at most ${MAX_LIST_ITEMS} of those (each string at most ${MAX_ITEM_CHARS} characters).`;
  }
  return undefined;
}

/** The options given without their `null`s (a `null` removes an option). */
export function withoutNulls(options: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== null));
}

/**
 * The options a change leaves: the given ones when given (else the stored ones), plus each
 * secret option of the provider the change left out and the channel had (as the key stays when
 * no `apiKey` is given); a `null` removes an option, a secret one included.
 */
export function changedOptions(current: ChannelDefinition, given: Record<string, unknown> | undefined, provider: string): Record<string, unknown> {
  if (given === undefined) return current.options;
  const kept = secretOptionNames(provider).filter((name) => !Object.hasOwn(given, name) && current.options[name] !== undefined);
  return { ...Object.fromEntries(kept.map((name) => [name, current.options[name]])), ...withoutNulls(given) };
}
