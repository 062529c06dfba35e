/**
 * What a key's name and model patterns may be, and which keys an account may hold: one set of
 * rules for `gengate keys create` and the admin API (each words its own errors around them).
 */
import { compileModelPattern } from '../routing/model-pattern.js';
import type { StoredApiKey } from '../store/api-keys-repository.js';

export const MAX_KEY_NAME_CHARS = 100;
export const MAX_MODEL_PATTERNS = 100;
export const MAX_MODEL_PATTERN_CHARS = 200;

/** Control characters (tabs, newlines, escapes) and the bidirectional overrides that reorder text on a terminal. */
const UNPRINTABLE = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/** Why a trimmed key name is refused, as words that follow the field's name; undefined when it is fine. */
export function keyNameProblem(name: string): string | undefined {
  if (!name) return 'is empty';
  if (UNPRINTABLE.test(name)) return 'must be one line of printable text (no tabs, newlines or control characters)';
  if ([...name].length > MAX_KEY_NAME_CHARS) return `is longer than ${MAX_KEY_NAME_CHARS} characters`;
  return undefined;
}

/** Why a list of trimmed model patterns is refused, as words that follow the field's name; undefined when it is fine. */
export function modelPatternsProblem(patterns: readonly string[]): string | undefined {
  if (patterns.length === 0) return 'lists no model';
  if (patterns.length > MAX_MODEL_PATTERNS) return `lists more than ${MAX_MODEL_PATTERNS} patterns`;
  for (const pattern of patterns) {
    if (!pattern) return 'holds an empty pattern';
    if (/\s/.test(pattern) || UNPRINTABLE.test(pattern)) return `has a pattern with spaces or control characters: "${JSON.stringify(pattern).slice(1, -1)}"`;
    if (pattern.length > MAX_MODEL_PATTERN_CHARS) return `has a pattern longer than ${MAX_MODEL_PATTERN_CHARS} characters`;
  }
  return undefined;
}

/**
 * The patterns of `wanted` that `allowed` does not cover. A pattern is covered when an allowed
 * pattern matches it with its `*` taken literally: an allowed `*` then spans each of its `*`, so
 * every model it matches is allowed too (a sound check, if not one that finds every cover).
 */
export function patternsOutside(wanted: readonly string[], allowed: readonly string[]): string[] {
  const matchers = allowed.map(compileModelPattern);
  return wanted.filter((pattern) => !matchers.some((matches) => matches(pattern)));
}

type KeyStatus = 'active' | 'revoked' | 'expired';

export function keyStatus(key: Pick<StoredApiKey, 'revokedAt' | 'expiresAt'>, now: number): KeyStatus {
  if (key.revokedAt) return 'revoked';
  return key.expiresAt && key.expiresAt <= now ? 'expired' : 'active';
}
