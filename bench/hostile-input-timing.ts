/**
 * How long the event loop is held by work on hostile client input: token counting of long
 * texts (runs without spaces, random text) and the sandbox's generation of tool arguments from
 * oversized schemas. Run with `node --import tsx bench/hostile-input-timing.ts`; each line is
 * the median of a few runs after one warm-up. The target is well under 100 ms per call.
 */
import { performance } from 'node:perf_hooks';
import { countTextTokens, loadTokenizer } from '../src/core/tokenizer.js';
import { generateFromSchema } from '../src/sandbox/chat/generate-from-schema.js';
import { createPrng } from '../src/sandbox/shared/prng.js';

const RUNS = 5;

function randomText(chars: number, alphabet: string, seed: number): string {
  const rng = createPrng(seed);
  const out: string[] = [];
  for (let i = 0; i < chars; i++) out.push(alphabet[rng.int(0, alphabet.length - 1)]);
  return out.join('');
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function time(label: string, work: () => unknown): void {
  let result: unknown;
  const took: number[] = [];
  for (let run = -1; run < RUNS; run++) {
    const start = performance.now();
    try {
      result = work();
    } catch (error) {
      result = `throws: ${(error as Error).message.slice(0, 70)}`;
    }
    if (run >= 0) took.push(performance.now() - start);
  }
  const shown = typeof result === 'number' ? `${result} tokens` : String(result).slice(0, 80);
  console.log(`${label.padEnd(44)} ${median(took).toFixed(1).padStart(7)} ms   ${shown}`);
}

await loadTokenizer();
const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const WITH_SPACES = `${LETTERS}      ,.;:!?-'"()`;
for (const [name, chars] of [
  ['100 KB', 100_000],
  ['1 MB', 1_000_000],
] as const) {
  const texts = {
    '"r"': 'r'.repeat(chars),
    'random letters (no spaces)': randomText(chars, LETTERS, 1),
    'random text with spaces': randomText(chars, WITH_SPACES, 2),
    'random unicode': randomText(chars, 'αβγδεζηθ日本語中文한국어😀🎉 ', 3),
  };
  for (const [kind, text] of Object.entries(texts)) time(`count ${name} of ${kind}`, () => countTextTokens(text));
}

const hostile: Record<string, unknown> = {
  'minItems 1e9': { type: 'object', properties: { a: { type: 'array', minItems: 1e9, items: { type: 'integer' } } }, required: ['a'] },
  'maxItems 1e9, nested 3 deep': {
    type: 'array',
    minItems: 100,
    items: { type: 'array', minItems: 100, items: { type: 'array', minItems: 100, items: { type: 'string' } } },
  },
  'minLength 1e9': { type: 'object', properties: { s: { type: 'string', minLength: 1e9 } }, required: ['s'] },
  'pattern a{1000000}': { type: 'object', properties: { s: { type: 'string', pattern: '^a{1000000}$' } }, required: ['s'] },
  'pattern ((a*)*)* nested stars': { type: 'object', properties: { s: { type: 'string', pattern: '^(((((((((((x*)*)*)*)*)*)*)*)*)*)*)$' } }, required: ['s'] },
  'allOf $ref fan-out 2^30': (() => {
    const defs: Record<string, unknown> = { d30: { type: 'string' } };
    for (let i = 29; i >= 0; i--) defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    return { $defs: defs, type: 'object', properties: { x: { $ref: '#/$defs/d0' } }, required: ['x'] };
  })(),
};
for (const [name, schema] of Object.entries(hostile)) {
  time(`schema ${name}`, () => `${JSON.stringify(generateFromSchema(schema, createPrng(1))).length} characters of arguments`);
}
