#!/usr/bin/env node
/**
 * Builds what is stale, and only that, so `npm start` does not spend ~20 s recompiling unchanged
 * sources: src/ into dist/ with TypeScript, and the dashboard (dashboard/) into dist/dashboard/
 * with esbuild, each with its own stamp. Run at install (`prepare`) and before `start` and `cli`.
 * `--if-possible`: skip quietly when the build tools are not installed (an install with
 * `--omit=dev`, which is expected to ship a built dist/). `--force`: build anyway. An installed
 * package (`npm pack`, the container image) ships dist/ without src/: there is nothing to build.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ifPossible = process.argv.includes('--if-possible');
const force = process.argv.includes('--force');
const requireHere = createRequire(join(root, 'package.json'));

if (!existsSync(join(root, 'src'))) {
  if (existsSync(join(root, 'dist', 'cli.js'))) process.exit(0);
  console.error('gengate: neither src/ nor a built dist/ is here: reinstall the package');
  process.exit(1);
}

/** Newest change under a folder; a folder's own time changes when a file is added, renamed or removed. */
function newestChange(path) {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

function resolves(id) {
  try {
    return requireHere.resolve(id);
  } catch {
    return undefined;
  }
}

/** Runs `build` when an input is newer than `stamp`; returns false when the build failed. */
function buildIfStale({ stamp, inputs, build }) {
  const builtAt = existsSync(stamp) ? statSync(stamp).mtimeMs : -1;
  const newestInput = Math.max(...inputs.map(newestChange));
  if (!force && builtAt >= newestInput) return true;
  const startedAt = Date.now();
  if (!build(builtAt)) return false;
  // The stamp carries the time the build started, so a source saved during the build counts as newer;
  // or just after the newest source's time when that is later (a file dated in the future must not
  // rebuild every start; the millisecond margin absorbs the rounding of times through seconds).
  const stampAt = Math.max(startedAt, Math.ceil(newestInput) + 1) / 1000;
  mkdirSync(dirname(stamp), { recursive: true });
  writeFileSync(stamp, `${new Date(startedAt).toISOString()}\n`);
  utimesSync(stamp, stampAt, stampAt);
  return true;
}

const serverBuilt = buildIfStale({
  stamp: join(root, 'dist', '.build-stamp'),
  inputs: ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json'].map((p) => join(root, p)),
  build(builtAt) {
    const tsc = resolves('typescript/bin/tsc');
    if (!tsc) {
      if (ifPossible) process.exit(0);
      console.error('gengate: dist/ is missing or older than src/ and TypeScript is not installed: run `npm install` (with dev dependencies) to build it');
      process.exit(1);
    }
    console.error(builtAt < 0 ? 'gengate: building dist/ (first time only)…' : 'gengate: sources changed, rebuilding dist/…');
    // The incremental build info says which outputs exist; with no stamp (or --force) they may not: start clean.
    if (force || builtAt < 0) rmSync(join(root, 'dist', '.tsbuildinfo'), { force: true });
    const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
    return true;
  },
});

// The dashboard is optional for the gateway (it answers 503 on /dashboard without it), so a
// missing esbuild only warns.
const dashboardScript = join(root, 'scripts', 'build-dashboard.mjs');
if (serverBuilt && existsSync(join(root, 'dashboard')) && existsSync(dashboardScript)) {
  buildIfStale({
    stamp: join(root, 'dist', '.dashboard-stamp'),
    inputs: ['dashboard', 'scripts/build-dashboard.mjs', 'package.json'].map((p) => join(root, p)),
    build(builtAt) {
      if (!resolves('esbuild')) {
        if (!ifPossible) console.error('gengate: the dashboard is not built and esbuild is not installed: /dashboard will answer 503');
        return false;
      }
      if (builtAt >= 0) console.error('gengate: dashboard sources changed, rebuilding dist/dashboard/…');
      const result = spawnSync(process.execPath, [dashboardScript], { stdio: 'inherit' });
      if (result.status !== 0) process.exit(result.status ?? 1);
      return true;
    },
  });
}
