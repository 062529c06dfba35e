#!/usr/bin/env node
/**
 * Bundles the dashboard (dashboard/, Preact + uPlot) with esbuild into dist/dashboard/:
 * index.html and assets/ whose file names carry a content hash (so the gateway can cache them
 * forever). Builds into a temporary folder beside the output and swaps it in, so a running
 * gateway never sees half a build. `--out <dir>` writes elsewhere (tests).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outFlag = process.argv.indexOf('--out');
const outDir = outFlag > 0 ? resolve(process.argv[outFlag + 1]) : join(root, 'dist', 'dashboard');
const quiet = process.argv.includes('--quiet');
const staging = `${outDir}.tmp-${process.pid}`;

rmSync(staging, { recursive: true, force: true });
mkdirSync(join(staging, 'assets'), { recursive: true });
try {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [join(root, 'dashboard', 'src', 'main.tsx')],
    outdir: join(staging, 'assets'),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022'],
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: join(root, 'dashboard', 'tsconfig.json'),
    define: { 'process.env.NODE_ENV': '"production"' },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((path) => basename(path));
  const script = outputs.find((name) => name.endsWith('.js'));
  const style = outputs.find((name) => name.endsWith('.css'));
  if (!script || !style) throw new Error(`esbuild wrote no script or stylesheet: ${outputs.join(', ')}`);
  const template = readFileSync(join(root, 'dashboard', 'index.html'), 'utf8');
  const html = template
    .replace('<!-- styles -->', `<link rel="stylesheet" href="/dashboard/assets/${style}">`)
    .replace('<!-- script -->', `<script type="module" src="/dashboard/assets/${script}"></script>`);
  if (html === template) throw new Error('dashboard/index.html lacks the <!-- styles --> and <!-- script --> markers');
  writeFileSync(join(staging, 'index.html'), html);

  const old = `${outDir}.old-${process.pid}`;
  mkdirSync(dirname(outDir), { recursive: true });
  if (existsSync(outDir)) renameSync(outDir, old);
  renameSync(staging, outDir);
  rmSync(old, { recursive: true, force: true });

  if (!quiet) {
    const sizes = outputs.map((name) => {
      const body = readFileSync(join(outDir, 'assets', name));
      return { name, raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
    });
    const total = sizes.reduce((sum, s) => ({ raw: sum.raw + s.raw, gzip: sum.gzip + s.gzip }), { raw: 0, gzip: 0 });
    const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
    for (const s of sizes) console.error(`  dist/dashboard/assets/${s.name}  ${kb(s.raw)} (${kb(s.gzip)} gzip)`);
    console.error(`gengate: dashboard built: ${kb(total.raw)} (${kb(total.gzip)} gzip)`);
  }
} finally {
  rmSync(staging, { recursive: true, force: true });
}
