/**
 * keepTickShape, in a fresh Node process each (V8's hidden classes are per process): after several
 * full garbage collections with no tick queued, the inline caches in `nextTick` that define the
 * tick object's properties are still monomorphic. The control run, without keepTickShape, shows
 * them megamorphic: the state that made every tick take V8's slow path.
 *
 * The states are read from V8's `%DebugPrint` of `nextTick`'s feedback vector (Node 20's format);
 * the test fails, rather than passes, if that output changes and no such cache is found.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('./keep-tick-shape.ts', import.meta.url));

// Runs in the child with --allow-natives-syntax and --expose-gc.
const SCRIPT = `
if (process.env.KEEP === '1') (await import(${JSON.stringify(MODULE)})).keepTickShape();
const settle = () => new Promise((done) => setImmediate(done));
for (let cycle = 0; cycle < 8; cycle++) {
  await new Promise((done) => { let left = 20; for (let i = 0; i < 20; i++) process.nextTick(() => { if (--left === 0) done(); }); });
  await settle();
  globalThis.gc();
}
new Function('f', '%DebugPrint(f)')(process.nextTick);
`;

/** The states of the caches that define the tick object's properties, e.g. ['MONOMORPHIC', …]. */
function tickLiteralCacheStates(keep: boolean): string[] {
  // V8 prints to the process's stdout directly; a pipe can cut that output short, a file cannot.
  const dir = mkdtempSync(join(tmpdir(), 'gengate-tick-shape-'));
  const outPath = join(dir, 'out.txt');
  const out = openSync(outPath, 'w');
  try {
    const result = spawnSync(process.execPath, ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', '--input-type=module', '-e', SCRIPT], {
      env: { ...process.env, KEEP: keep ? '1' : '0' },
      stdio: ['ignore', out, 'pipe'],
      encoding: 'utf8',
      timeout: 30_000,
    });
    if (result.status !== 0) throw new Error(`child failed (${result.status}): ${result.stderr}`);
    const printed = readFileSync(outPath, 'utf8');
    const states = [...printed.matchAll(/DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((match) => match[1]);
    if (states.length < 4) throw new Error(`no tick-object caches found in V8's output:\n${printed.slice(0, 2000)}`);
    return states;
  } finally {
    closeSync(out);
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('keepTickShape', () => {
  it("keeps nextTick's tick-object caches monomorphic through full garbage collections", () => {
    expect(new Set(tickLiteralCacheStates(true))).toEqual(new Set(['MONOMORPHIC']));
  });

  it('without it, the same collections leave them megamorphic (the control)', () => {
    expect(tickLiteralCacheStates(false)).toContain('MEGAMORPHIC');
  });
});
