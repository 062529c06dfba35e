/**
 * disablePretenuring, in a fresh Node process each (V8's allocation sites are per process): a burst
 * in which most objects of one object literal survive young collections at full young-generation
 * size, then the same literal's objects again. V8 on its own then allocates them in the old
 * generation (the control); after disablePretenuring they are young again. A 1 MB semi-space makes
 * every young collection a "full size" one, the condition under which V8 tenures a site.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MODULE = fileURLToPath(new URL('./no-pretenuring.ts', import.meta.url));

// Runs in the child with --allow-natives-syntax and a 1 MB semi-space.
const SCRIPT = `
const disabled = process.env.DISABLE === '1' ? (await import(${JSON.stringify(MODULE)})).disablePretenuring() : false;
const inYoungGeneration = new Function('o', 'return %InYoungGeneration(o)');
const make = (i) => ({ a: i, b: i + 1, c: null });
let burst = [];
for (let i = 0; i < 300_000; i++) burst.push(make(i));
burst = null;
let young = 0;
for (let i = 0; i < 1000; i++) if (inYoungGeneration(make(i))) young++;
process.stdout.write(JSON.stringify({ disabled, young }));
`;

function afterBurst(options: { disable: boolean; nodeFlags?: string[] }): { disabled: boolean; young: number } {
  const result = spawnSync(
    process.execPath,
    ['--allow-natives-syntax', '--max-semi-space-size=1', ...(options.nodeFlags ?? []), '--import', 'tsx', '--input-type=module', '-e', SCRIPT],
    { env: { ...process.env, DISABLE: options.disable ? '1' : '0' }, encoding: 'utf8', timeout: 30_000 },
  );
  if (result.status !== 0) throw new Error(`child failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout) as { disabled: boolean; young: number };
}

/**
 * V8 decides to tenure a site from its own sampling, which a loaded machine can delay past the
 * burst; where V8's default is expected, a run in which it tenured is looked for in up to three
 * fresh processes. With pretenuring off, no run may tenure.
 */
function afterBurstWithDefault(options: { disable: boolean; nodeFlags?: string[] }): { disabled: boolean; young: number } {
  let result = afterBurst(options);
  for (let attempt = 1; attempt < 3 && result.young !== 0; attempt++) result = afterBurst(options);
  return result;
}

describe('disablePretenuring', () => {
  it('keeps an object literal young after a burst of its objects survived young collections', () => {
    expect(afterBurst({ disable: true })).toEqual({ disabled: true, young: 1000 });
  });

  it('without it, V8 allocates that literal in the old generation from then on (the control)', () => {
    expect(afterBurstWithDefault({ disable: false })).toEqual({ disabled: false, young: 0 });
  });

  it('leaves V8 its default when the command line asks for pretenuring', () => {
    expect(afterBurstWithDefault({ disable: true, nodeFlags: ['--allocation-site-pretenuring'] })).toEqual({ disabled: false, young: 0 });
  });
});
