/**
 * Replicas (or cluster workers) sharing a data folder start at the same moment with no key
 * configured: each generates `secret.key` if missing. All must end up with the same key, and
 * none may read the file half-made (created but not yet written).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';
import { keyIdOf, loadSecretKey, parseSecretKey } from './credential-cipher.js';

/** Runs inside the next `writeFileSync` that creates a file: after the file exists, before its content is written. */
let betweenCreateAndWrite: (() => void) | undefined;
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const writeFileSync: typeof fs.writeFileSync = (file, data, options) => {
    const between = betweenCreateAndWrite;
    if (!between) return fs.writeFileSync(file, data, options);
    betweenCreateAndWrite = undefined;
    fs.writeFileSync(file, '', options);
    between();
    fs.writeFileSync(file, data);
  };
  return { ...fs, default: { ...fs, writeFileSync }, writeFileSync };
});

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Waits until `startAt` (busy, so all processes go within a millisecond), then loads the key and prints its id. */
const GENERATOR = `
import { keyIdOf, loadSecretKey } from './src/store/credential-cipher.ts';
const [dataDir, startAt] = [process.argv[1], Number(process.argv[2])];
while (Date.now() < startAt);
process.stdout.write(keyIdOf(loadSecretKey({ dataDir })));
`;

function generate(dataDir: string, startAt: number): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', GENERATOR, dataDir, String(startAt)], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  child.stderr.on('data', (chunk) => (out += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, out })));
}

it('a second generator running while the first has created but not yet written its file gets the same key', () => {
  const root = mkdtempSync(join(tmpdir(), 'gengate-key-race-'));
  dirs.push(root);
  const dataDir = join(root, 'data');
  let second: Buffer | undefined;
  betweenCreateAndWrite = () => {
    second = loadSecretKey({ dataDir });
  };
  const first = loadSecretKey({ dataDir });
  expect(second).toBeDefined();
  expect(first).toEqual(second);
  expect(loadSecretKey({ dataDir })).toEqual(first);
  expect(readdirSync(dataDir)).toEqual(['secret.key']);
});

it('processes generating the key file at the same moment all get the one key that was written', async () => {
  const rounds = 3;
  const generators = 4;
  const roots = Array.from({ length: rounds }, () => mkdtempSync(join(tmpdir(), 'gengate-key-race-')));
  dirs.push(...roots);
  // Time enough for every process to load before the start.
  const startAt = Date.now() + 6_000;
  const results = await Promise.all(roots.map((root) => Promise.all(Array.from({ length: generators }, () => generate(join(root, 'data'), startAt)))));
  for (const [i, root] of roots.entries()) {
    const dataDir = join(root, 'data');
    const path = join(dataDir, 'secret.key');
    const written = keyIdOf(parseSecretKey(readFileSync(path, 'utf8'), path));
    expect(results[i]).toEqual(Array.from({ length: generators }, () => ({ code: 0, out: written })));
    expect(readdirSync(dataDir)).toEqual(['secret.key']);
  }
}, 30_000);
