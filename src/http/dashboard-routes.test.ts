/**
 * `/dashboard`: index.html for the app's paths, hashed assets cached forever, security headers,
 * nothing outside the build served, 503 without a build; and the real build script's output
 * served as it is.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { registerDashboardRoutes } from './dashboard-routes.js';

const root = mkdtempSync(join(tmpdir(), 'gengate-dashboard-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function serve(dir: string): Promise<FastifyInstance> {
  const app = Fastify();
  registerDashboardRoutes(app, { dir });
  await app.ready();
  return app;
}

function fixture(): string {
  const dir = join(root, 'fixture');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>fixture</title><script type="module" src="/dashboard/assets/main-ABC.js"></script>');
  writeFileSync(join(dir, 'assets', 'main-ABC.js'), 'console.log(1);');
  writeFileSync(join(dir, 'assets', 'main-ABC.css'), 'body{}');
  writeFileSync(join(root, 'secret.txt'), 'not for the web');
  return dir;
}

function expectSecurityHeaders(headers: Record<string, unknown>): void {
  expect(headers['content-security-policy']).toMatch(/^default-src 'self'; script-src 'self'; /);
  expect(String(headers['content-security-policy'])).not.toMatch(/unsafe-inline|unsafe-eval/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBe('same-origin');
  expect(headers['x-frame-options']).toBe('DENY');
}

describe('dashboard routes on a build', () => {
  const dir = fixture();

  it('answers index.html, not cached, for /dashboard, /dashboard/ and every client route', async () => {
    const app = await serve(dir);
    for (const url of ['/dashboard', '/dashboard/', '/dashboard/keys', '/dashboard/tasks/task_123', '/dashboard/setup?token=x']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.body).toContain('<title>fixture</title>');
      expectSecurityHeaders(response.headers);
    }
    await app.close();
  });

  it('serves assets with their type and a long immutable cache', async () => {
    const app = await serve(dir);
    const js = await app.inject({ url: '/dashboard/assets/main-ABC.js' });
    expect(js.statusCode).toBe(200);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(js.body).toBe('console.log(1);');
    expectSecurityHeaders(js.headers);
    const css = await app.inject({ url: '/dashboard/assets/main-ABC.css' });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    await app.close();
  });

  it('reads the files once: a change on disk after start is not served', async () => {
    const app = await serve(dir);
    writeFileSync(join(dir, 'assets', 'main-ABC.js'), 'changed');
    writeFileSync(join(dir, 'assets', 'late.js'), 'late');
    expect((await app.inject({ url: '/dashboard/assets/main-ABC.js' })).body).toBe('console.log(1);');
    expect((await app.inject({ url: '/dashboard/assets/late.js' })).statusCode).toBe(404);
    writeFileSync(join(dir, 'assets', 'main-ABC.js'), 'console.log(1);');
    rmSync(join(dir, 'assets', 'late.js'));
    await app.close();
  });

  it('serves nothing outside the build: unknown names and traversal get 404', async () => {
    const app = await serve(dir);
    for (const url of [
      '/dashboard/assets/',
      '/dashboard/assets/missing.js',
      '/dashboard/assets/..%2F..%2Fsecret.txt',
      '/dashboard/assets/%2e%2e%2findex.html',
      '/dashboard/assets/..%5Csecret.txt',
    ]) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('not for the web');
      expectSecurityHeaders(response.headers);
    }
    // A path that climbs out resolves inside /dashboard/ (the client route), never to a file.
    const climbed = await app.inject({ url: '/dashboard/../secret.txt' });
    expect(climbed.body).not.toContain('not for the web');
    await app.close();
  });

  it('answers HEAD like GET without a body', async () => {
    const app = await serve(dir);
    const response = await app.inject({ method: 'HEAD', url: '/dashboard/usage' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    await app.close();
  });
});

describe('dashboard routes without a build', () => {
  it('answer 503 with how to build it', async () => {
    const app = await serve(join(root, 'missing'));
    for (const url of ['/dashboard', '/dashboard/keys', '/dashboard/assets/main.js']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(503);
      expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(response.body).toMatch(/npm run build/);
      expectSecurityHeaders(response.headers);
    }
    await app.close();
  });
});

describe('the real build', () => {
  it('scripts/build-dashboard.mjs writes an index.html whose hashed script and stylesheet are served', async () => {
    const out = join(root, 'built');
    const build = spawnSync(process.execPath, ['scripts/build-dashboard.mjs', '--out', out, '--quiet'], { encoding: 'utf8', timeout: 60_000 });
    expect(build.stderr).toBe('');
    expect(build.status).toBe(0);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toMatch(/<html lang="en">/);
    const script = /<script type="module" src="(\/dashboard\/assets\/main-[A-Z0-9]+\.js)"><\/script>/.exec(html)?.[1];
    const style = /<link rel="stylesheet" href="(\/dashboard\/assets\/main-[A-Z0-9]+\.css)">/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect(style).toBeDefined();
    // No inline script: the CSP forbids it.
    expect(html.match(/<script/g)).toHaveLength(1);

    const app = await serve(out);
    const js = await app.inject({ url: script! });
    expect(js.statusCode).toBe(200);
    expect(js.body.length).toBeGreaterThan(10_000);
    expect((await app.inject({ url: style! })).headers['content-type']).toBe('text/css; charset=utf-8');
    await app.close();
  });
});
