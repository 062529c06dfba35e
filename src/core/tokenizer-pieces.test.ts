import { countTokens } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { boundedPieces, PIECE_CHARS } from './tokenizer-pieces.js';

const PLAIN = { disallowedSpecial: new Set<string>() };

/** Deterministic mixed text: words, numbers, punctuation, single and repeated spaces, tabs and newlines. */
function mixedText(seed: number, words: number): string {
  const vocabulary = ['the', 'Gateway', "don't", 'x', '12345', '3.14', '—', 'café', '日本語', '(ok)', '...', 'https://a.b/c', '😀', 'I', "it's", '--', 'A1b2'];
  const separators = [' ', ' ', ' ', ' ', ' ', ' ', '  ', '\n', ' \n', '\n ', '\t', '   ', ', ', '. '];
  let state = seed;
  const next = (n: number): number => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state % n;
  };
  let text = '';
  for (let i = 0; i < words; i++) text += vocabulary[next(vocabulary.length)] + separators[next(separators.length)];
  return text;
}

describe('boundedPieces', () => {
  it('gives the text back whole, in pieces no longer than the bound', () => {
    for (const text of ['', 'short', 'r'.repeat(2_000), mixedText(1, 800), '😀'.repeat(500)]) {
      const pieces = [...boundedPieces(text)];
      expect(pieces.join('')).toBe(text);
      expect(pieces.every((piece) => piece.length > 0 && piece.length <= PIECE_CHARS)).toBe(true);
    }
  });

  it('never splits a surrogate pair', () => {
    for (const piece of boundedPieces('😀'.repeat(500), 7)) expect(piece.length % 2).toBe(0);
  });

  it('cuts only where the token count of the whole text is kept, when the text has spaces', () => {
    let checked = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const text = mixedText(seed, 300);
      const pieces = [...boundedPieces(text, 64)];
      // Only texts where every cut found a space in reach (no cut inside a run) must keep the count.
      if (!pieces.slice(1).every((piece) => piece.startsWith(' '))) continue;
      checked++;
      expect(pieces.length).toBeGreaterThan(10);
      const summed = pieces.reduce((sum, piece) => sum + countTokens(piece, PLAIN), 0);
      expect(summed, `seed ${seed}`).toBe(countTokens(text, PLAIN));
    }
    expect(checked).toBeGreaterThan(20);
  });
});
