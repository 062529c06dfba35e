/**
 * Finds the object that follows the last `"key":` of a JSON text without parsing the whole
 * document: a pass-through JSON answer's usage sits at its end.
 */

/** The JSON object that follows the last `"key":` in the text, parsed; undefined when there is none. */
export function lastObjectAt(text: string, key: string): unknown {
  const at = text.lastIndexOf(`"${key}"`);
  if (at === -1) return undefined;
  let i = at + key.length + 2;
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  if (text[i] !== ':') return undefined;
  i++;
  while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++;
  if (text[i] !== '{') return undefined;
  const start = i;
  let depth = 0;
  let inString = false;
  for (; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \\ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 /* { */) depth++;
    else if (ch === 125 /* } */ && --depth === 0) {
      try {
        return JSON.parse(text.slice(start, i + 1));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * `lastObjectAt` on the UTF-8 bytes of the text: the structure it looks at is ASCII, which
 * UTF-8 never uses inside a multi-byte character, so both find the same object.
 */
export function lastObjectInBytes(bytes: Buffer, key: string): unknown {
  const at = bytes.lastIndexOf(`"${key}"`);
  if (at === -1) return undefined;
  let i = skipSpace(bytes, at + Buffer.byteLength(key) + 2);
  if (bytes[i] !== 58 /* : */) return undefined;
  i = skipSpace(bytes, i + 1);
  if (bytes[i] !== 123 /* { */) return undefined;
  const start = i;
  let depth = 0;
  let inString = false;
  for (; i < bytes.length; i++) {
    const ch = bytes[i];
    if (inString) {
      if (ch === 92 /* \\ */) i++;
      else if (ch === 34 /* " */) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 123 /* { */) depth++;
    else if (ch === 125 /* } */ && --depth === 0) {
      try {
        return JSON.parse(bytes.toString('utf8', start, i + 1));
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function skipSpace(bytes: Buffer, from: number): number {
  let i = from;
  for (let c = bytes[i]; c === 32 || c === 10 || c === 13 || c === 9; c = bytes[++i]);
  return i;
}
