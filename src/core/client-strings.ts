/**
 * Client strings that reach a database row, a lookup or an identifier. PostgreSQL's text cannot
 * hold U+0000 at all (the row, or the query, is refused); and control characters — C0, DEL and
 * C1 — have no business in an identifier (a model id, a name, an e-mail, an id to look up): they
 * become terminal escapes and torn lines wherever the value is shown. Free text (prompts, a
 * client's opaque state) keeps its tabs and newlines: only U+0000 is refused there. Errors name
 * the character by its code point and never echo it.
 */
import { GatewayError } from './errors.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
const CONTROL_CHARACTERS = new RegExp(CONTROL_CHARACTER.source, 'g');
/** The same, but for tab, line feed and carriage return, which text may hold. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
const CONTROL_CHARACTER_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** `text` with each control character written out as `\u0000` and the like: shown or stored, it holds none of them. */
export function escapeControlCharacters(text: string): string {
  return controlCharacterAt(text) === -1 ? text : text.replace(CONTROL_CHARACTERS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Where the first C0, DEL or C1 control character of `text` is (tab, LF and CR left alone with `allowLineBreaks`), or -1. */
export function controlCharacterAt(text: string, allowLineBreaks = false): number {
  return text.search(allowLineBreaks ? CONTROL_CHARACTER_BUT_LINE_BREAKS : CONTROL_CHARACTER);
}

/** Whether `text` can be stored in (and looked up from) every database the gateway runs on. */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000');
}

function codePointAt(text: string, index: number): string {
  return `U+${text.charCodeAt(index).toString(16).toUpperCase().padStart(4, '0')}`;
}

function refused(text: string, index: number, param: string, what: string): GatewayError {
  const found = what === 'U+0000' ? `at position ${index}` : `found ${codePointAt(text, index)} at position ${index}`;
  return new GatewayError('invalid_request', `${param} must not contain ${what} (${found})`, {
    param,
    code: 'invalid_characters',
  });
}

/** An identifier: throws an invalid_request naming `param` when it holds a control character. */
export function checkIdentifierText(text: string, param: string): string {
  const index = controlCharacterAt(text);
  if (index !== -1) throw refused(text, index, param, 'control characters');
  return text;
}

/** Text such as a name or a setting, lines allowed: throws an invalid_request naming `param` when it holds a control character other than tab, LF or CR. */
export function checkPlainText(text: string, param: string): string {
  const index = controlCharacterAt(text, true);
  if (index !== -1) throw refused(text, index, param, 'control characters other than tabs and line breaks');
  return text;
}

/** Free text that is stored: throws an invalid_request naming `param` when it holds U+0000. */
export function checkStorableText(text: string, param: string): string {
  const index = text.indexOf('\u0000');
  if (index !== -1) throw refused(text, index, param, 'U+0000');
  return text;
}

/** Longest walk through a parsed JSON value, in strings and keys visited. */
const MAX_VISITED = 100_000;

/**
 * The first string — value or member name — in a parsed JSON value that `isBad` refuses, with
 * its path (`messages[0].content`), or undefined. Iterative and bounded: a deep or wide value
 * cannot overflow the stack or hold the event loop (past the bound, the rest is not looked at;
 * bodies are bounded in size before they are parsed).
 */
export function findString(value: unknown, isBad: (text: string) => boolean, root = ''): { path: string; text: string } | undefined {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: root }];
  let visited = 0;
  while (stack.length > 0 && visited < MAX_VISITED) {
    const { value: current, path } = stack.pop() as { value: unknown; path: string };
    visited++;
    if (typeof current === 'string') {
      if (isBad(current)) return { path, text: current };
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: `${path}[${i}]` });
    } else if (current !== null && typeof current === 'object' && !ArrayBuffer.isView(current)) {
      const keys = Object.keys(current);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i];
        const shown = controlCharacterAt(key) === -1 ? key : JSON.stringify(key).slice(1, -1);
        const child = path === '' ? shown : `${path}.${shown}`;
        if (isBad(key)) return { path: `${child} (a member name)`, text: key };
        stack.push({ value: (current as Record<string, unknown>)[key], path: child });
      }
    }
  }
  return undefined;
}
