/**
 * The layering rules of docs/architecture.md, checked on the real import graph (type-only imports
 * included): no import cycles, `core/` imports nothing else from `src/` and does no I/O,
 * `surfaces/` and `providers/` never import each other, `http/` does not import `surfaces/`
 * (nothing but the composition root does, through the surface registry), a surface is imported
 * only by the registry, its own folder and tests, and only `store/` talks SQL.
 */
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DependencyTree } from 'dpdm';

// dpdm's ES module build has extensionless relative imports that Node refuses; its CommonJS build is fine.
const { parseDependencyTree, parseCircular } = createRequire(import.meta.url)('dpdm') as typeof import('dpdm');

interface ImportEdge {
  from: string;
  to: string;
}

/** Where surfaces, providers and services are put together. */
const COMPOSITION_ROOTS = ['src/app.ts'];
const SURFACE_REGISTRY = 'src/surfaces/registry.ts';
/**
 * What a surface lends to others: the OpenAI error shape (the task families without a shape of
 * their own answer in it) and the three dialects' model lists and errors (the shared model routes).
 */
const LENT_BY_SURFACES = [
  'src/surfaces/openai/render-error.ts',
  'src/surfaces/openai/render-model-list.ts',
  'src/surfaces/anthropic/render-error.ts',
  'src/surfaces/anthropic/render-model-list.ts',
  'src/surfaces/gemini/render-error.ts',
  'src/surfaces/gemini/render-model-list.ts',
];
const SQL_PACKAGES = ['kysely', 'pg', 'better-sqlite3'];
const IO_MODULES = [
  ...['fs', 'fs/promises', 'net', 'tls', 'http', 'https', 'http2', 'dgram', 'dns', 'child_process', 'worker_threads'].flatMap((m) => [m, `node:${m}`]),
  'undici',
  'fastify',
  'ioredis',
  ...SQL_PACKAGES,
];

let tree: DependencyTree;
let edges: ImportEdge[];

beforeAll(async () => {
  tree = await parseDependencyTree(['src/**/*.ts', 'test/**/*.ts', 'bench/*.ts', 'fuzz/*.ts'], {
    context: process.cwd(),
    tsconfig: 'tsconfig.json',
    transform: false,
    skipDynamicImports: false,
  });
  edges = Object.values(tree)
    .flatMap((deps) => deps ?? [])
    .map((dep) => ({ from: dep.issuer, to: dep.id ?? `unresolved:${dep.request}` }));
}, 60_000);

const under = (folder: string) => (file: string) => file.startsWith(folder);
/** Files of a folder without the tests beside them (which may wire anything together). */
const shipped = (prefix: string) => (path: string) => under(prefix)(path) && !path.endsWith('.test.ts');
const describeEdge = (edge: ImportEdge) => `${edge.from} -> ${edge.to}`;

function importsBetween(fromFolder: (file: string) => boolean, toModule: (target: string) => boolean): string[] {
  return edges.filter((edge) => fromFolder(edge.from) && toModule(edge.to)).map(describeEdge);
}

describe('import graph', () => {
  it('reads the whole source tree and resolves every relative import', () => {
    const files = Object.keys(tree).filter(under('src/'));
    expect(files.length).toBeGreaterThan(200);
    expect(Object.keys(tree)).toContain('src/app.ts');
    const unresolved = Object.values(tree)
      .flatMap((deps) => deps ?? [])
      .filter((dep) => dep.request.startsWith('.') && dep.id === null)
      .map((dep) => `${dep.issuer} imports ${dep.request}`);
    expect(unresolved).toEqual([]);
  });

  it('has no import cycles', () => {
    const cycles = parseCircular(tree, false).map((cycle) => [...cycle, cycle[0]].join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('core/ imports nothing else from src/', () => {
    expect(importsBetween(under('src/core/'), (to) => to.startsWith('src/') && !to.startsWith('src/core/'))).toEqual([]);
  });

  it('core/ does no I/O: no file, network, process, HTTP or database modules', () => {
    expect(importsBetween(under('src/core/'), (to) => IO_MODULES.includes(to))).toEqual([]);
  });

  it('surfaces/ and providers/ never import each other (tests beside them may wire one to the other)', () => {
    expect(importsBetween(shipped('src/surfaces/'), under('src/providers/'))).toEqual([]);
    expect(importsBetween(shipped('src/providers/'), under('src/surfaces/'))).toEqual([]);
  });

  it('http/ does not import surfaces/', () => {
    expect(importsBetween(under('src/http/'), under('src/surfaces/'))).toEqual([]);
  });

  it('outside surfaces/, only the composition root imports a surface, through the registry (the service contract lives in core/ and gateway/)', () => {
    const outsideSurfaces = (from: string) => from.startsWith('src/') && !from.startsWith('src/surfaces/');
    expect(importsBetween(outsideSurfaces, under('src/surfaces/'))).toEqual(COMPOSITION_ROOTS.map((root) => `${root} -> ${SURFACE_REGISTRY}`));
  });

  it('a surface is imported only by the registry, its own folder and tests (save what it lends, named above)', () => {
    // A surface is a folder of surfaces/ with an index.ts descriptor; shared/ and types.ts are for every surface.
    const surfaceFolders = Object.keys(tree)
      .filter((file) => /^src\/surfaces\/[^/]+\/index\.ts$/.test(file))
      .map((file) => file.slice(0, -'index.ts'.length));
    const folderOf = (file: string) => surfaceFolders.find((folder) => file.startsWith(folder));
    expect(surfaceFolders.length).toBeGreaterThan(10);
    const stray = edges.filter((edge) => {
      const folder = folderOf(edge.to);
      if (folder === undefined || edge.from.startsWith(folder) || edge.from === SURFACE_REGISTRY) return false;
      if (!shipped('src/')(edge.from)) return false;
      return !(LENT_BY_SURFACES.includes(edge.to) && edge.from.startsWith('src/surfaces/'));
    });
    expect(stray.map(describeEdge)).toEqual([]);
    expect(SURFACE_REGISTRY in tree).toBe(true);
  });

  it('admin/ never imports surfaces/, reaches providers only through their registry, and only the composition roots and the CLI import admin/', () => {
    expect(importsBetween(shipped('src/admin/'), under('src/surfaces/'))).toEqual([]);
    const providerInternals = (to: string) => to.startsWith('src/providers/') && to !== 'src/providers/registry.ts' && to !== 'src/providers/types.ts';
    expect(importsBetween(shipped('src/admin/'), providerInternals)).toEqual([]);
    const outsideAdmin = (from: string) =>
      from.startsWith('src/') && !from.startsWith('src/admin/') && !from.startsWith('src/cli/') && !COMPOSITION_ROOTS.includes(from);
    expect(importsBetween(outsideAdmin, under('src/admin/'))).toEqual([]);
  });

  it('only store/ talks SQL', () => {
    const outsideStore = (from: string) => from.startsWith('src/') && !from.startsWith('src/store/');
    expect(importsBetween(outsideStore, (to) => SQL_PACKAGES.includes(to))).toEqual([]);
  });
});
