/**
 * Cuts a text into pieces the BPE can encode in bounded time. A cut is made before a single
 * space that sits between two non-space characters: the tokenizer's pre-split never joins a
 * character with a space after it, and a space before a word starts the word's token, so the
 * pieces' counts add up to the whole text's count. Only a run with no such space longer than
 * `max` is cut inside, which changes the count by a token or so per cut.
 */

/** Pieces are at most this long; shorter when a good cut point is near the end. */
export const PIECE_CHARS = 400;

function isSpace(code: number): boolean {
  // The whitespace the o200k pre-split knows (\s), enough of it for choosing cut points.
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x85 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Where to end the piece that starts at `start` (exclusive); `text.length - start > max`. */
function cutPoint(text: string, start: number, max: number): number {
  const limit = start + max;
  for (let i = limit; i > start + max / 2; i--) {
    if (text.charCodeAt(i) === 0x20 && !isSpace(text.charCodeAt(i - 1)) && i + 1 < text.length && !isSpace(text.charCodeAt(i + 1))) return i;
  }
  return isHighSurrogate(text.charCodeAt(limit - 1)) ? limit - 1 : limit;
}

export function* boundedPieces(text: string, max = PIECE_CHARS): Generator<string> {
  let start = 0;
  while (text.length - start > max) {
    const end = cutPoint(text, start, max);
    yield text.slice(start, end);
    start = end;
  }
  if (start < text.length) yield text.slice(start);
}
