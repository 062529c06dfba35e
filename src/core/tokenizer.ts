/**
 * The real tokenizer (o200k_base from `gpt-tokenizer`), loaded on first use: it adds about
 * 60 MB of resident memory, which a gateway that only passes traffic through never needs.
 * Callers `await loadTokenizer()` once on their path, then count synchronously. Special-token
 * strings in user text are counted as plain text instead of making the tokenizer throw.
 */
type TokenizerModule = typeof import('gpt-tokenizer');

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

export function countTextTokens(text: string): number {
  return text.length === 0 ? 0 : tokenizer().countTokens(text, PLAIN_TEXT);
}

export function encodeText(text: string): number[] {
  return text.length === 0 ? [] : tokenizer().encode(text, PLAIN_TEXT);
}

/** The text of each token in turn (multi-byte characters split across tokens are held back until whole). */
export function tokenPieces(tokens: readonly number[]): Iterable<string> {
  return tokenizer().decodeGenerator(tokens);
}
