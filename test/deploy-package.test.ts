/**
 * The container image's steps, run as a script in an empty folder (this machine has no container
 * engine): the Dockerfile's install script packs the built checkout and installs it with
 * `npm ci --omit=dev`; the image's ENTRYPOINT and CMD start the gateway from there on an embedded
 * SQLite; /healthz, /readyz, the dashboard and the shipped catalog answer; the image's HEALTHCHECK
 * command passes against it and fails once it is gone; SIGTERM ends it with exit code 0.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { envOf, execForm, finalStage, only, readDockerfile } from './helpers/dockerfile.js';
import { freePort } from './helpers/free-port.js';

const checkout = process.cwd();
const work = mkdtempSync(join(tmpdir(), 'gengate-deploy-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const dockerfile = readDockerfile(join(checkout, 'Dockerfile'));
const image = finalStage(dockerfile);

/** npm and the gateway see only this, not the variables of the test run (npm_config_*, GENGATE_*). */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? work, TMPDIR: tmpdir() };
  if (process.env.npm_config_cache) env.npm_config_cache = process.env.npm_config_cache;
  return { ...env, ...extra };
}

/**
 * better-sqlite3's install script downloads a prebuilt binary from its GitHub releases, else compiles
 * SQLite (two minutes and more on this machine, which reaches the npm registry but not GitHub). The
 * checkout's own install already built that binary for this Node and libc: handed to prebuild-install
 * as a local prebuild, the install script still runs and unpacks it, in seconds. Elsewhere (musl),
 * the install compiles as the image's would.
 */
function localPrebuilds(): Record<string, string> {
  const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime;
  const built = join(checkout, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  if (!glibc || !existsSync(built)) return {};
  const { version } = JSON.parse(readFileSync(join(checkout, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8')) as { version: string };
  const folder = join(work, 'prebuilds');
  mkdirSync(folder);
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const packed = spawnSync('tar', ['-czf', join(folder, name), '-C', join(checkout, 'node_modules', 'better-sqlite3'), 'build/Release/better_sqlite3.node']);
  expect(packed.status).toBe(0);
  return { npm_config_better_sqlite3_local_prebuilds: folder };
}

async function waitFor(child: ChildProcess, output: () => string, text: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!output().includes(text)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no "${text}" from the gateway:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the container image, as a script in a clean folder', () => {
  it('installs the packed build without dev dependencies, starts, answers its probes and drains on SIGTERM', async () => {
    // The build the image packs: a no-op when dist/ is up to date (CI's `npm ci` built it).
    expect(spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { stdio: 'inherit', timeout: 120_000 }).status).toBe(0);

    const app = join(work, 'app');
    const install = only(
      dockerfile.filter((i) => i.keyword === 'RUN' && i.args.includes('install-package.sh')),
      'RUN',
    );
    expect(install.args).toBe('sh deploy/install-package.sh /src /app');
    const startedAt = Date.now();
    const installed = spawnSync('sh', ['deploy/install-package.sh', checkout, app], {
      env: cleanEnv({ npm_config_prefer_offline: 'true', ...localPrebuilds() }),
      encoding: 'utf8',
      timeout: 170_000,
    });
    const installMs = Date.now() - startedAt;
    expect(installed.status, `${installed.stdout}\n${installed.stderr}`).toBe(0);
    console.log(`install-package.sh took ${(installMs / 1000).toFixed(1)} s`);

    // What the package holds, and what it must not.
    expect(existsSync(join(app, 'dist', 'cli.js'))).toBe(true);
    expect(existsSync(join(app, 'dist', 'dashboard', 'index.html'))).toBe(true);
    expect(existsSync(join(app, 'catalog', 'models.yaml'))).toBe(true);
    expect(existsSync(join(app, 'src'))).toBe(false);
    expect(existsSync(join(app, 'node_modules', 'better-sqlite3'))).toBe(true);
    for (const dev of ['typescript', 'vitest', 'esbuild', 'tsx', '@biomejs']) expect(existsSync(join(app, 'node_modules', dev)), dev).toBe(false);

    const command = [...execForm(only(image, 'ENTRYPOINT').args), ...execForm(only(image, 'CMD').args)];
    expect(command).toEqual(['node', 'dist/cli.js', 'start']);
    const port = await freePort();
    const data = join(work, 'data');
    const env = cleanEnv({
      ...envOf(image),
      GENGATE_HOST: '127.0.0.1',
      GENGATE_PORT: String(port),
      GENGATE_DATA_DIR: data,
      GENGATE_DATABASE_URL: `sqlite:${join(data, 'gengate.db')}`,
    });
    const [program, ...args] = command;
    expect(program).toBe('node');
    const child = spawn(process.execPath, args, { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitFor(child, () => output, 'gengate listening on', 30_000);
      const base = `http://127.0.0.1:${port}`;
      const health = await fetch(`${base}/healthz`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready', checks: { store: 'ok', media: 'ok' } });
      // The dashboard and the catalog came with the package.
      const dashboard = await fetch(`${base}/dashboard/`);
      expect(dashboard.status).toBe(200);
      expect(await dashboard.text()).toContain('<html');
      const key = /\b(gg-[A-Za-z0-9]{42})\b/.exec(output)?.[1];
      expect(key).toBeDefined();
      const models = (await (await fetch(`${base}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).json()) as { data: unknown[] };
      expect(models.data.length).toBeGreaterThan(0);

      const [checkProgram, ...checkArgs] = execForm(only(image, 'HEALTHCHECK').args);
      expect(checkProgram).toBe('node');
      const healthcheck = () => spawnSync(process.execPath, checkArgs, { env, timeout: 10_000 }).status;
      expect(healthcheck()).toBe(0);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output).toContain('draining');
      expect(healthcheck()).not.toBe(0);
      // Usage was flushed into the database: no journal left behind for the next start to fold in.
      expect(readdirSync(join(data, 'usage-journal')).filter((name) => name.endsWith('.journal'))).toEqual([]);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 240_000);
});
