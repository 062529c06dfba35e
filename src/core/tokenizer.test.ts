import { countTokens, decode } from 'gpt-tokenizer';
import { beforeAll, describe, expect, it } from 'vitest';
import { countTextsTokens, countTextTokens, encodeText, EXACT_COUNT_CHARS, loadTokenizer } from './tokenizer.js';

const PLAIN = { disallowedSpecial: new Set<string>() };

/** Text made of real words and numbers in a deterministic order (prose-like, fast for the real tokenizer). */
function wordsText(chars: number, seed: number): string {
  const words = [
    'gateway',
    'model',
    'request',
    'the',
    'of',
    'and',
    'token',
    'stream',
    'answer',
    'quietly',
    'Oslo',
    '2024',
    'latency,',
    'fast.',
    'budget',
    'x7',
    'über',
    'naïve',
  ];
  let state = seed;
  let text = '';
  while (text.length < chars) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    text += `${words[state % words.length]}${state % 13 === 0 ? '\n' : ' '}`;
  }
  return text.slice(0, chars);
}

function randomLetters(chars: number, seed: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  let state = seed;
  const out: string[] = [];
  for (let i = 0; i < chars; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out.push(alphabet[(state >>> 8) % alphabet.length]);
  }
  return out.join('');
}

beforeAll(async () => {
  await loadTokenizer();
});

describe('countTextTokens', () => {
  it('counts ordinary sentences exactly as the tokenizer does', () => {
    const sentences = [
      'Hello, world!',
      'The quick brown fox jumps over the lazy dog.',
      "What's the weather like in Oslo tomorrow? I'd like to know before 9:30.",
      'Ünïcödé text, emoji 😀 and 日本語 mixed in.\n\nA second paragraph\twith a tab.',
      wordsText(20_000, 3),
    ];
    for (const text of sentences) expect(countTextTokens(text)).toBe(countTokens(text, PLAIN));
    expect(countTextTokens('')).toBe(0);
  });

  it('counts special-token strings as plain text', () => {
    expect(countTextTokens('a <|endoftext|> b')).toBe(countTokens('a <|endoftext|> b', PLAIN));
  });

  it('finding 2: a long run without spaces counts as the tokenizer counts it', () => {
    // 4,000 characters is as long as the real tokenizer handles quickly enough for a unit test.
    const run = 'r'.repeat(4_000);
    expect(countTextTokens(run)).toBe(countTokens(run, PLAIN));
    const letters = randomLetters(4_000, 5);
    expect(Math.abs(countTextTokens(letters) - countTokens(letters, PLAIN))).toBeLessThanOrEqual(10);
  });

  it('finding 2: past the exact limit, estimates a long text within 2% of the real count', () => {
    for (const text of [wordsText(300_000, 7), randomLetters(60_000, 9)]) {
      expect(text.length).toBeGreaterThan(EXACT_COUNT_CHARS);
      const real = countTokens(text, PLAIN);
      expect(Math.abs(countTextTokens(text) - real) / real).toBeLessThan(0.02);
    }
  });

  it('finding 2: counts 1 MB of one letter without a whole-text BPE (25 tokens per 100 letters)', () => {
    // "rrrr" is one token: the real count of r×n is n/4 (checked on 4,000 letters above).
    expect(countTextTokens('r'.repeat(1_000_000))).toBe(250_000);
  });
});

describe('countTextsTokens', () => {
  it('is the sum of the texts counted separately while they are small', () => {
    const texts = ['Hello there.', '', 'General Kenobi!', wordsText(5_000, 1)];
    expect(countTextsTokens(texts)).toBe(texts.reduce((sum, text) => sum + countTokens(text, PLAIN), 0));
    expect(countTextsTokens([])).toBe(0);
  });

  it('bounds many texts together and stays within 2% of their summed real counts', () => {
    const texts = Array.from({ length: 400 }, (_, i) => wordsText(100 + (i % 7) * 300, i + 1));
    const real = texts.reduce((sum, text) => sum + countTokens(text, PLAIN), 0);
    expect(texts.reduce((sum, text) => sum + text.length, 0)).toBeGreaterThan(EXACT_COUNT_CHARS);
    expect(Math.abs(countTextsTokens(texts) - real) / real).toBeLessThan(0.02);
  });
});

describe('encodeText', () => {
  it('encodes long text in pieces that decode back to it, with the count of the whole', () => {
    const text = `${wordsText(30_000, 11)} ${'z'.repeat(2_000)}`;
    const tokens = encodeText(text);
    expect(decode(tokens)).toBe(text);
    expect(Math.abs(tokens.length - countTokens(text, PLAIN))).toBeLessThanOrEqual(5);
  });
});
