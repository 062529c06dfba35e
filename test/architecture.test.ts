/**
 * The layering rules of docs/architecture.md, checked on the real import graph (type-only imports
 * included): no import cycles; shipped code imports only from lower floors (FLOORS below);
 * `config/` and `store/` load no provider; `core/` imports nothing else from `src/` (tests
 * included) and does no I/O; `surfaces/` never imports `providers/`, `http/` not `surfaces/`;
 * outside `surfaces/` only the composition root imports a surface, through the surface registry,
 * and a surface is imported only by the registry, its own folder and tests; `admin/` never imports
 * `surfaces/` and only the roots and the CLI import it; only `store/` talks SQL.
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
/**
 * The floors of `src/`, lowest first. Shipped code imports only what lies on a lower floor, or in
 * its own folder: folders on one floor never import each other. The files of a floor's entry
 * that lists several prefixes count as one folder (the composition roots).
 */
const FLOORS: ReadonlyArray<ReadonlyArray<string | readonly string[]>> = [
  /** Logging and tracing: what every floor may use. */
  ['src/core/', 'src/observability/'],
  ['src/media/'],
  /** The provider contract and what adapters share: what the sandbox builds on. */
  [['src/providers/types.ts', 'src/providers/create-provider.ts', 'src/providers/shared/']],
  ['src/sandbox/'],
  /** The upstream adapters and the registry listing every provider, the sandbox included. */
  ['src/providers/'],
  ['src/config/'],
  ['src/store/', 'src/routing/', 'src/http/'],
  ['src/ledger/', 'src/auth/'],
  /** Rate limits and budgets: the seam, the counters, the rules, admission (the gateway and the task engine use it). */
  ['src/limits/'],
  ['src/gateway/'],
  ['src/tasks/', 'src/surfaces/'],
  /** Metrics and the timing headers: they read the lifecycle, the task engine and the store, and only the roots use them. */
  ['src/metrics/'],
  ['src/admin/'],
  [['src/app.ts', 'src/cli.ts', 'src/cli/', 'src/start-banner.ts']],
];
/** What loads provider adapters: the registry and each provider's descriptor. */
const loadsProviders = (file: string) =>
  file === 'src/providers/registry.ts' || file === 'src/sandbox/index.ts' || /^src\/providers\/[^/]+\/index\.ts$/.test(file);
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

interface Place {
  floor: number;
  /** The folder (or the files counted as one) within the floor. */
  room: number;
}

/** Where a file of `src/` sits on FLOORS, if it sits anywhere. */
function placeOf(file: string): Place | undefined {
  for (const [floor, rooms] of FLOORS.entries()) {
    const room = rooms.findIndex((prefixes) => (typeof prefixes === 'string' ? [prefixes] : prefixes).some((prefix) => file.startsWith(prefix)));
    if (room >= 0) return { floor, room };
  }
  return undefined;
}

/** Every file `starts` reach through their imports, themselves included. */
function reachedFrom(starts: string[]): Set<string> {
  const reached = new Set<string>();
  const pending = [...starts];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (reached.has(file)) continue;
    reached.add(file);
    for (const dep of tree[file] ?? []) if (dep.id?.startsWith('src/')) pending.push(dep.id);
  }
  return reached;
}

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

  it('every shipped file of src/ sits on a floor', () => {
    const homeless = Object.keys(tree).filter((file) => shipped('src/')(file) && placeOf(file) === undefined);
    expect(homeless).toEqual([]);
  });

  it('shipped code imports only from a lower floor or its own folder', () => {
    const upward = edges.filter((edge) => {
      const from = placeOf(edge.from);
      const to = placeOf(edge.to);
      if (!shipped('src/')(edge.from) || from === undefined || to === undefined) return false;
      return to.floor > from.floor || (to.floor === from.floor && to.room !== from.room);
    });
    expect(upward.map(describeEdge)).toEqual([]);
  });

  it('config/ and store/ load no provider: the composition roots hand them the provider descriptors', () => {
    for (const folder of ['src/config/', 'src/store/']) {
      const reached = reachedFrom(Object.keys(tree).filter(shipped(folder)));
      expect([...reached].filter(loadsProviders), folder).toEqual([]);
    }
  });

  it('core/ imports nothing else from src/, its tests included', () => {
    expect(importsBetween(under('src/core/'), (to) => to.startsWith('src/') && !to.startsWith('src/core/'))).toEqual([]);
  });

  it('core/ does no I/O: no file, network, process, HTTP or database modules', () => {
    expect(importsBetween(under('src/core/'), (to) => IO_MODULES.includes(to))).toEqual([]);
  });

  it('surfaces/ never imports providers/ (tests beside them may wire one to the other)', () => {
    expect(importsBetween(shipped('src/surfaces/'), under('src/providers/'))).toEqual([]);
  });

  it('http/ does not import surfaces/, its tests included', () => {
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

  it('admin/ never imports surfaces/, reaches providers only through their registry, and only the composition roots and the CLI import admin/ (tests of src/ included)', () => {
    expect(importsBetween(shipped('src/admin/'), under('src/surfaces/'))).toEqual([]);
    const providerInternals = (to: string) =>
      to.startsWith('src/sandbox/') || (to.startsWith('src/providers/') && to !== 'src/providers/registry.ts' && to !== 'src/providers/types.ts');
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
