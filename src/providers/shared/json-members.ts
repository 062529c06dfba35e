/**
 * Small edits and reads on the JSON text of an upstream answer, without parsing it: find a
 * member at a given nesting depth, replace its value, remove it, or read the string values of
 * a key. Strings are skipped whole (a quote is a delimiter only after an even number of
 * backslashes), so text inside a string value can never be taken for a key. Every function is
 * one forward pass over the text, bounded by its length.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;

/** Where one member sits in the text: `"key"` starts at `keyStart`; its value spans `[valueStart, valueEnd)`. */
export interface MemberSpan {
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

/**
 * The members named in `keys` at nesting depth `depth` (1: the top-level object's members;
 * objects and arrays each count as a level), the first of each name; stops once all are found.
 * Key names are compared as written (they must not need escapes).
 */
export function findMembers(text: string, keys: readonly string[], depth: number): Map<string, MemberSpan> {
  const found = new Map<string, MemberSpan>();
  let level = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end === -1) return found;
      if (level === depth) {
        const colon = skipSpace(text, end + 1);
        if (text.charCodeAt(colon) === COLON) {
          const name = text.slice(i + 1, end);
          if (keys.includes(name) && !found.has(name)) {
            const valueStart = skipSpace(text, colon + 1);
            const valueEnd = valueEndAt(text, valueStart);
            if (valueEnd === -1) return found;
            found.set(name, { keyStart: i, valueStart, valueEnd });
            if (found.size === keys.length) return found;
            i = valueEnd;
            continue;
          }
        }
      }
      i = end + 1;
      continue;
    }
    if (c === 123 /* { */ || c === 91 /* [ */) level++;
    else if (c === 125 /* } */ || c === 93 /* ] */) level--;
    i++;
  }
  return found;
}

/** The first member `key` at `depth`, if any. */
export function findMember(text: string, key: string, depth: number): MemberSpan | undefined {
  return findMembers(text, [key], depth).get(key);
}

/** The text with the member's value replaced by `value` (already JSON). */
export function replaceValue(text: string, span: MemberSpan, value: string): string {
  return text.slice(0, span.valueStart) + value + text.slice(span.valueEnd);
}

/** True when the member's value is the string token for `value`, as `JSON.stringify` writes it. */
export function valueIs(text: string, span: MemberSpan, json: string): boolean {
  return span.valueEnd - span.valueStart === json.length && text.startsWith(json, span.valueStart);
}

/**
 * The text without the member, and without one comma: the one before it when there is one
 * (`{"a":1,"m":null}` → `{"a":1}`), else the one after it (`{"m":null,"a":1}` → `{"a":1}`).
 */
export function removeMember(text: string, span: MemberSpan): string {
  let before = span.keyStart - 1;
  while (before >= 0 && isSpace(text.charCodeAt(before))) before--;
  if (text.charCodeAt(before) === COMMA) return text.slice(0, before) + text.slice(span.valueEnd);
  const after = skipSpace(text, span.valueEnd);
  if (text.charCodeAt(after) === COMMA) return text.slice(0, span.keyStart) + text.slice(skipSpace(text, after + 1));
  return text.slice(0, span.keyStart) + text.slice(span.valueEnd);
}

/**
 * Calls `onValue` with the decoded string value of every member named `key`, at any depth, in
 * order; members whose value is not a string are skipped.
 */
export function forEachStringValue(text: string, key: string, onValue: (value: string) => void): void {
  const needle = `"${key}"`;
  let at = text.indexOf(needle);
  while (at !== -1) {
    let next = at + needle.length;
    // An unescaped quote followed by the key name opens a string (a closing quote cannot be followed by a letter).
    if (!escapedAt(text, at)) {
      const colon = skipSpace(text, next);
      if (text.charCodeAt(colon) === COLON) {
        const start = skipSpace(text, colon + 1);
        if (text.charCodeAt(start) === QUOTE) {
          const end = stringEnd(text, start);
          if (end === -1) return;
          const token = text.slice(start, end + 1);
          onValue(token.includes('\\') ? decodeString(token) : token.slice(1, -1));
          next = end + 1;
        }
      }
    }
    at = text.indexOf(needle, next);
  }
}

function decodeString(token: string): string {
  try {
    return JSON.parse(token) as string;
  } catch {
    return '';
  }
}

/** Index of the quote closing the string that opens at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return -1;
    if (!escapedAt(text, quote)) return quote;
    from = quote + 1;
  }
}

/** True when the character at `at` follows an odd number of backslashes. */
function escapedAt(text: string, at: number): boolean {
  let count = 0;
  for (let i = at - 1; i >= 0 && text.charCodeAt(i) === BACKSLASH; i--) count++;
  return count % 2 === 1;
}

/** End (exclusive) of the JSON value starting at `start`, or -1 when the text ends first. */
function valueEndAt(text: string, start: number): number {
  const c = text.charCodeAt(start);
  if (c === QUOTE) {
    const end = stringEnd(text, start);
    return end === -1 ? -1 : end + 1;
  }
  if (c === 123 || c === 91) {
    let level = 0;
    for (let i = start; i < text.length; i++) {
      const ch = text.charCodeAt(i);
      if (ch === QUOTE) {
        const end = stringEnd(text, i);
        if (end === -1) return -1;
        i = end;
      } else if (ch === 123 || ch === 91) level++;
      else if ((ch === 125 || ch === 93) && --level === 0) return i + 1;
    }
    return -1;
  }
  let i = start;
  while (i < text.length) {
    const ch = text.charCodeAt(i);
    if (ch === COMMA || ch === 125 || ch === 93 || isSpace(ch)) break;
    i++;
  }
  return i;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}
