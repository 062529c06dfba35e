/**
 * The vectors the fake upstreams answer: deterministic per text (and per model, so a rewrite
 * is visible), values k/4096 with |k| ≤ 4096 — exactly representable as float32, so tests can
 * compare them exactly after a base64 float32 round trip.
 */

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function fakeEmbeddingValues(seedText: string, dimensions: number): number[] {
  let state = fnv1a(seedText) || 1;
  const values = new Array<number>(dimensions);
  for (let i = 0; i < dimensions; i++) {
    // xorshift32
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    values[i] = ((state % 8193) - 4096) / 4096;
  }
  return values;
}
