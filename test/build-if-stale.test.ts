/**
 * `scripts/build-if-stale.mjs` (run by `prepare`, `prestart` and `precli`), on a small copy of the
 * project whose "TypeScript" only counts its runs: it builds the first time, not again while
 * nothing changed, again when a source changes or appears, and without TypeScript it skips at
 * install but refuses to start from a stale build.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = mkdtempSync(join(tmpdir(), 'gengate-build-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function project(withTypeScript: boolean): string {
  const dir = mkdtempSync(join(root, 'project-'));
  mkdirSync(join(dir, 'scripts'));
  mkdirSync(join(dir, 'src', 'cli'), { recursive: true });
  copyFileSync('scripts/build-if-stale.mjs', join(dir, 'scripts', 'build-if-stale.mjs'));
  for (const file of ['package.json', 'tsconfig.json', 'tsconfig.build.json']) writeFileSync(join(dir, file), '{}\n');
  writeFileSync(join(dir, 'src', 'cli.ts'), 'export {};\n');
  if (withTypeScript) {
    mkdirSync(join(dir, 'node_modules', 'typescript', 'bin'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'typescript', 'package.json'), '{"name":"typescript"}\n');
    // Stands in for tsc: records each run and writes the output folder.
    writeFileSync(
      join(dir, 'node_modules', 'typescript', 'bin', 'tsc'),
      `const fs = require('node:fs'); const path = require('node:path');
const root = path.dirname(process.argv[process.argv.indexOf('-p') + 1]);
fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
fs.appendFileSync(path.join(root, 'tsc-runs'), 'run\\n');`,
    );
  }
  return dir;
}

function build(dir: string, ...args: string[]): { status: number | null; stderr: string; runs: number } {
  const result = spawnSync(process.execPath, [join(dir, 'scripts', 'build-if-stale.mjs'), ...args], { encoding: 'utf8', timeout: 30_000 });
  const runs = existsSync(join(dir, 'tsc-runs')) ? readFileSync(join(dir, 'tsc-runs'), 'utf8').split('\n').filter(Boolean).length : 0;
  return { status: result.status, stderr: result.stderr, runs };
}

/** A time clearly after the last build, whatever the file system's time resolution. */
function later(path: string): void {
  const at = Date.now() / 1000 + 5;
  utimesSync(path, at, at);
}

describe('build only when sources changed', () => {
  it('finding 15: builds once, then not again until a source changes or a file is added', () => {
    const dir = project(true);
    expect(build(dir)).toMatchObject({ status: 0, runs: 1 });
    expect(build(dir)).toMatchObject({ status: 0, runs: 1 });
    expect(build(dir, '--if-possible')).toMatchObject({ status: 0, runs: 1 });

    later(join(dir, 'src', 'cli.ts'));
    expect(build(dir)).toMatchObject({ status: 0, runs: 2 });
    expect(build(dir)).toMatchObject({ status: 0, runs: 2 });

    writeFileSync(join(dir, 'src', 'cli', 'new-command.ts'), 'export {};\n');
    later(join(dir, 'src', 'cli'));
    expect(build(dir)).toMatchObject({ status: 0, runs: 3 });

    later(join(dir, 'tsconfig.build.json'));
    expect(build(dir)).toMatchObject({ status: 0, runs: 4 });
    expect(build(dir, '--force')).toMatchObject({ status: 0, runs: 5 });
  });

  it('without TypeScript (an install with --omit=dev): skipped at install, a clear refusal at start', () => {
    const dir = project(false);
    expect(build(dir, '--if-possible')).toMatchObject({ status: 0, stderr: '' });
    const start = build(dir);
    expect(start.status).toBe(1);
    expect(start.stderr).toMatch(/^gengate: dist\/ is missing or older than src\/ and TypeScript is not installed/);
  });
});
