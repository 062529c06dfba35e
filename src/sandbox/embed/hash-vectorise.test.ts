import { describe, expect, it } from 'vitest';
import { hashVectorise, textWords } from './hash-vectorise.js';

function norm(vector: number[]): number {
  return Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
}

function cosine(a: number[], b: number[]): number {
  return a.reduce((sum, value, i) => sum + value * b[i], 0) / (norm(a) * norm(b));
}

describe('textWords', () => {
  it('lower-cases and splits on anything that is not a letter or digit', () => {
    expect(textWords('The Cat, sat-on 2 MATS! Ça va?')).toEqual(['the', 'cat', 'sat', 'on', '2', 'mats', 'ça', 'va']);
  });
});

describe('hashVectorise', () => {
  it('makes vectors of the asked length and unit length', () => {
    for (const [text, dimensions] of [
      ['the cat sat on the mat', 768],
      ['quarterly revenue grew', 16],
      ['!!!', 32],
      ['', 8],
    ] as const) {
      const vector = hashVectorise(text, dimensions);
      expect(vector).toHaveLength(dimensions);
      expect(norm(vector)).toBeCloseTo(1, 12);
    }
  });

  it('is deterministic', () => {
    expect(hashVectorise('Deterministic text, twice.', 256)).toEqual(hashVectorise('Deterministic text, twice.', 256));
  });

  it('ignores case and punctuation', () => {
    expect(hashVectorise('Hello, World!', 128)).toEqual(hashVectorise('hello world', 128));
  });

  it('puts texts that share words closer than texts that do not', () => {
    const cat = hashVectorise('the cat sat on the mat', 768);
    const similar = hashVectorise('a cat on a mat', 768);
    const unrelated = hashVectorise('quarterly revenue grew', 768);
    expect(cosine(cat, similar)).toBeGreaterThan(0.35);
    expect(Math.abs(cosine(cat, unrelated))).toBeLessThan(0.2);
    expect(cosine(cat, similar) - cosine(cat, unrelated)).toBeGreaterThan(0.3);
  });

  it('keeps word forms close through shared trigrams', () => {
    const base = hashVectorise('embedding', 768);
    expect(cosine(base, hashVectorise('embeddings', 768))).toBeGreaterThan(cosine(base, hashVectorise('revenue', 768)) + 0.2);
  });

  it('gives different texts without words different vectors', () => {
    expect(hashVectorise('!!!', 64)).not.toEqual(hashVectorise('???', 64));
  });
});
