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

  it('an installed package (dist/ without src/, as npm pack ships it): nothing to build; neither: a clear refusal', () => {
    const dir = project(true);
    rmSync(join(dir, 'src'), { recursive: true });
    expect(build(dir)).toMatchObject({ status: 1, runs: 0 });
    expect(build(dir).stderr).toMatch(/^gengate: neither src\/ nor a built dist\/ is here/);
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist', 'cli.js'), '');
    expect(build(dir, '--if-possible')).toMatchObject({ status: 0, stderr: '', runs: 0 });
    expect(build(dir)).toMatchObject({ status: 0, stderr: '', runs: 0 });
  });
});

describe('the dashboard', () => {
  /** The project above plus dashboard/, a build-dashboard.mjs that counts its runs, and "esbuild". */
  function withDashboard(withEsbuild: boolean): string {
    const dir = project(true);
    mkdirSync(join(dir, 'dashboard', 'src'), { recursive: true });
    writeFileSync(join(dir, 'dashboard', 'src', 'main.tsx'), 'export {};\n');
    writeFileSync(
      join(dir, 'scripts', 'build-dashboard.mjs'),
      `import { appendFileSync } from 'node:fs'; import { join } from 'node:path';
appendFileSync(join(import.meta.dirname, '..', 'dashboard-runs'), 'run\\n');`,
    );
    if (withEsbuild) {
      mkdirSync(join(dir, 'node_modules', 'esbuild'), { recursive: true });
      writeFileSync(join(dir, 'node_modules', 'esbuild', 'package.json'), '{"name":"esbuild","main":"index.js"}\n');
      writeFileSync(join(dir, 'node_modules', 'esbuild', 'index.js'), '');
    }
    return dir;
  }
  const dashboardRuns = (dir: string) =>
    existsSync(join(dir, 'dashboard-runs')) ? readFileSync(join(dir, 'dashboard-runs'), 'utf8').split('\n').filter(Boolean).length : 0;

  it('is built apart from src/: only when dashboard/ changed, without recompiling the server', () => {
    const dir = withDashboard(true);
    expect(build(dir)).toMatchObject({ status: 0, runs: 1 });
    expect(dashboardRuns(dir)).toBe(1);
    expect(build(dir)).toMatchObject({ status: 0, runs: 1 });
    expect(dashboardRuns(dir)).toBe(1);

    later(join(dir, 'dashboard', 'src', 'main.tsx'));
    expect(build(dir)).toMatchObject({ status: 0, runs: 1 });
    expect(dashboardRuns(dir)).toBe(2);

    later(join(dir, 'src', 'cli.ts'));
    expect(build(dir)).toMatchObject({ status: 0, runs: 2 });
    expect(dashboardRuns(dir)).toBe(2);
    expect(build(dir, '--force')).toMatchObject({ status: 0, runs: 3 });
    expect(dashboardRuns(dir)).toBe(3);
  });

  it('without esbuild: the server still builds and starts; a warning at start, silence at install', () => {
    const dir = withDashboard(false);
    expect(build(dir, '--if-possible')).toMatchObject({ status: 0, runs: 1, stderr: expect.not.stringMatching(/dashboard/) });
    const start = build(dir);
    expect(start).toMatchObject({ status: 0, runs: 1 });
    expect(start.stderr).toMatch(/the dashboard is not built and esbuild is not installed/);
    expect(dashboardRuns(dir)).toBe(0);
  });
});
