#!/usr/bin/env node
/**
 * Compiles src/ into dist/ only when a source is newer than the last build, so `npm start`
 * does not spend ~20 s recompiling unchanged sources. Run at install (`prepare`) and before
 * `start` and `cli`. `--if-possible`: skip quietly when TypeScript is not installed (an install
 * with `--omit=dev`, which is expected to ship a built dist/). `--force`: build anyway.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.build-stamp');
const ifPossible = process.argv.includes('--if-possible');
const force = process.argv.includes('--force');

/** Newest change under a folder; a folder's own time changes when a file is added, renamed or removed. */
function newestChange(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'].map((p) => join(root, p));
const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : -1;
const newestInput = Math.max(...inputs.map(newestChange));
if (!force && builtAt >= newestInput) process.exit(0);

let tsc;
try {
  tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
} catch {
  if (ifPossible) process.exit(0);
  console.error('gengate: dist/ is missing or older than src/ and TypeScript is not installed: run `npm install` (with dev dependencies) to build it');
  process.exit(1);
}
console.error(builtAt < 0 ? 'gengate: building dist/ (first time only)…' : 'gengate: sources changed, rebuilding dist/…');
const startedAt = Date.now();
// The incremental build info says which outputs exist; with no stamp (or --force) they may not: start clean.
if (force || builtAt < 0) rmSync(join(root, 'dist', '.tsbuildinfo'), { force: true });
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
// The stamp carries the time the build started, so a source saved during the build counts as newer;
// or just after the newest source's time when that is later (a file dated in the future must not
// rebuild every start; the millisecond margin absorbs the rounding of times through seconds).
const stampAt = Math.max(startedAt, Math.ceil(newestInput) + 1) / 1000;
writeFileSync(stamp, `${new Date(startedAt).toISOString()}\n`);
utimesSync(stamp, stampAt, stampAt);
