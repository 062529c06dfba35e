/**
 * The real tokenizer the sandbox counts with (o200k_base). Special-token strings in user
 * text are counted as plain text instead of making the tokenizer throw.
 */
import { countTokens, decodeGenerator, encode } from 'gpt-tokenizer';

const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function countTextTokens(text: string): number {
  return text.length === 0 ? 0 : countTokens(text, PLAIN_TEXT);
}

export function encodeText(text: string): number[] {
  return text.length === 0 ? [] : encode(text, PLAIN_TEXT);
}

/** The text of each token in turn (multi-byte characters split across tokens are held back until whole). */
export function tokenPieces(tokens: readonly number[]): Iterable<string> {
  return decodeGenerator(tokens);
}
