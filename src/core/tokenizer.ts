/**
 * The real tokenizer (o200k_base from `gpt-tokenizer`), loaded on first use: it adds about
 * 60 MB of resident memory, which a gateway that only passes traffic through never needs.
 * Callers `await loadTokenizer()` once on their path, then count synchronously. Special-token
 * strings in user text are counted as plain text instead of making the tokenizer throw.
 *
 * Counting runs on the event loop, so it is bounded whatever the input: text is fed to the
 * BPE in pieces of at most PIECE_CHARS (its cost grows faster than linearly with the length
 * of a run without spaces), and when the texts of one count hold more than EXACT_COUNT_CHARS
 * characters, evenly spaced windows of them are counted and the total is scaled from those.
 */
import { boundedPieces } from './tokenizer-pieces.js';

type TokenizerModule = typeof import('gpt-tokenizer');

/** Up to this many characters (all texts of one count together) are counted exactly. */
export const EXACT_COUNT_CHARS = 32_768;
const SAMPLE_WINDOW_CHARS = 1_024;
const SAMPLE_WINDOWS = EXACT_COUNT_CHARS / SAMPLE_WINDOW_CHARS;

let loaded: TokenizerModule | undefined;
let loading: Promise<TokenizerModule> | undefined;

const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function loadTokenizer(): Promise<TokenizerModule> {
  if (loaded) return Promise.resolve(loaded);
  loading ??= import('gpt-tokenizer').then((module) => (loaded = module));
  return loading;
}

function tokenizer(): TokenizerModule {
  if (!loaded) throw new Error('tokenizer used before loadTokenizer() resolved');
  return loaded;
}

function countExactly(text: string): number {
  const bpe = tokenizer();
  let total = 0;
  for (const piece of boundedPieces(text)) total += bpe.countTokens(piece, PLAIN_TEXT);
  return total;
}

/**
 * Counts evenly spaced windows of the texts (as if they were one text) and scales the sum
 * by the characters: close to the exact count for any text that is alike throughout.
 */
function estimateFromWindows(texts: readonly string[], totalChars: number): number {
  const stride = totalChars / SAMPLE_WINDOWS;
  let sampledChars = 0;
  let sampledTokens = 0;
  let index = 0;
  let textStart = 0;
  for (let window = 0; window < SAMPLE_WINDOWS; window++) {
    let from = Math.floor(window * stride);
    const to = Math.min(totalChars, from + SAMPLE_WINDOW_CHARS);
    while (from < to) {
      while (textStart + texts[index].length <= from) textStart += texts[index++].length;
      const text = texts[index];
      const end = Math.min(to, textStart + text.length);
      const piece = text.slice(from - textStart, end - textStart);
      sampledTokens += countExactly(piece);
      sampledChars += piece.length;
      from = end;
    }
  }
  return Math.round((sampledTokens * totalChars) / sampledChars);
}

/** The tokens of several texts, counted separately and summed, with one bound for all of them. */
export function countTextsTokens(texts: readonly string[]): number {
  let totalChars = 0;
  for (const text of texts) totalChars += text.length;
  if (totalChars === 0) return 0;
  if (totalChars > EXACT_COUNT_CHARS) return estimateFromWindows(texts, totalChars);
  let total = 0;
  for (const text of texts) if (text.length > 0) total += countExactly(text);
  return total;
}

export function countTextTokens(text: string): number {
  return countTextsTokens([text]);
}

/**
 * The tokens of a text. Linear in its length but not capped: only for text the gateway
 * produced itself (the sandbox's answers), never for a client's.
 */
export function encodeText(text: string): number[] {
  if (text.length === 0) return [];
  const bpe = tokenizer();
  const tokens: number[] = [];
  for (const piece of boundedPieces(text)) for (const token of bpe.encode(piece, PLAIN_TEXT)) tokens.push(token);
  return tokens;
}

/** The text of each token in turn (multi-byte characters split across tokens are held back until whole). */
export function tokenPieces(tokens: readonly number[]): Iterable<string> {
  return tokenizer().decodeGenerator(tokens);
}
