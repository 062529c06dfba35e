/**
 * A string matching several patterns at once — what `allOf` of patterns asks for, as zod
 * writes `startsWith` + `endsWith` + `includes`: first a match of one pattern that happens
 * to match the others, else the literal pieces (`^prefix`, `suffix$`, bare infixes) joined
 * and padded. Undefined when neither works; the caller falls back to plain text.
 */
import type { Prng } from '../shared/prng.js';
import { generateFromPattern, type LengthBounds } from './generate-from-pattern.js';
import { MAX_PATTERN_LENGTH } from './generation-limits.js';

const SPECIAL = '.^$*+?()[]{}|\\/';

function compile(pattern: string): RegExp | undefined {
  if (pattern.length > MAX_PATTERN_LENGTH) return undefined;
  try {
    return new RegExp(pattern, 'u');
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return undefined;
    }
  }
}

/** The text a pattern of escaped literal characters stands for; undefined when it holds any operator. */
function literalOf(source: string): string | undefined {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      const next = source[i + 1];
      if (next === undefined || /[A-Za-z0-9]/.test(next)) return undefined;
      out += next;
      i++;
    } else if (SPECIAL.includes(ch)) {
      return undefined;
    } else {
      out += ch;
    }
  }
  return out;
}

interface Pieces {
  prefix: string;
  infixes: string[];
  suffix: string;
}

/** Reads `^L`, `^L.*`, `L$`, `.*L$`, `L`, `.*L.*`; undefined for anything else. */
function piecesOf(patterns: readonly string[]): Pieces | undefined {
  const pieces: Pieces = { prefix: '', infixes: [], suffix: '' };
  for (const pattern of patterns) {
    let body = pattern;
    const anchoredStart = body.startsWith('^');
    if (anchoredStart) body = body.slice(1);
    const anchoredEnd = body.endsWith('$') && !body.endsWith('\\$');
    if (anchoredEnd) body = body.slice(0, -1);
    if (body.startsWith('.*')) body = body.slice(2);
    if (body.endsWith('.*') && !body.endsWith('\\.*')) body = body.slice(0, -2);
    const literal = literalOf(body);
    if (literal === undefined) return undefined;
    const startsAt = anchoredStart && !pattern.startsWith('^.*');
    const endsAt = anchoredEnd && !pattern.endsWith('.*$');
    if (startsAt && endsAt) return undefined;
    if (startsAt) {
      if (pieces.prefix !== '' && !literal.startsWith(pieces.prefix) && !pieces.prefix.startsWith(literal)) return undefined;
      if (literal.length > pieces.prefix.length) pieces.prefix = literal;
    } else if (endsAt) {
      if (pieces.suffix !== '' && !literal.endsWith(pieces.suffix) && !pieces.suffix.endsWith(literal)) return undefined;
      if (literal.length > pieces.suffix.length) pieces.suffix = literal;
    } else if (literal !== '') {
      pieces.infixes.push(literal);
    }
  }
  return pieces;
}

export function generateFromPatterns(patterns: readonly string[], rng: Prng, length: LengthBounds): string | undefined {
  if (patterns.length === 1) return generateFromPattern(patterns[0], rng, length);
  const regexes = patterns.map(compile);
  if (regexes.some((r) => r === undefined)) return undefined;
  const fits = (s: string): boolean => {
    const n = [...s].length;
    return n >= length.min && n <= length.max && regexes.every((r) => (r as RegExp).test(s));
  };
  for (const pattern of patterns) {
    const candidate = generateFromPattern(pattern, rng, length);
    if (candidate !== undefined && fits(candidate)) return candidate;
  }
  const pieces = piecesOf(patterns);
  if (!pieces) return undefined;
  let middle = pieces.infixes.join('');
  const bare = [...pieces.prefix, ...middle, ...pieces.suffix].length;
  for (let n = bare; n < length.min; n++) middle += 'abcdefghijklmnopqrstuvwxyz'[rng.int(0, 25)];
  const candidate = pieces.prefix + middle + pieces.suffix;
  return fits(candidate) ? candidate : undefined;
}
