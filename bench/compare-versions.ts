/**
 * CPU per request of two gengate checkouts side by side, robust to a busy machine: both run at
 * once behind one mock upstream and are loaded in turn, in short windows, the order swapped
 * every round; each window's server CPU (from /proc) is divided by its answers. Medians and the
 * median of the per-round ratios are printed; the build of each checkout is refreshed first.
 *
 * With `--rate N` each window sends N requests a second instead of saturating the server, so both
 * checkouts are measured at the same request rate, below the point where the load generator, the
 * mock and the server fight over the cores. Each round then also measures both servers idle and
 * prints the marginal CPU per request as well: the window's CPU less the idle rate over its length
 * (background timers are a cost per second, not per request, and differ between versions).
 *
 * `--restart-every N` starts both servers afresh every N rounds: some costs are settled once per
 * process (which of V8's inline caches have gone megamorphic, how the heap has grown), so one pair
 * of processes can favour either version.
 *
 * `--gc` also counts each window's garbage collections (bench/gc-stats-preload.mjs) and prints,
 * per request, young and full collections and how much the old generation grew: objects that
 * should die young but are promoted or pretenured show there. `--node-args` passes node flags to
 * both servers (e.g. `--node-args=--no-allocation-site-pretenuring` to compare the code alone).
 *
 *   node --import tsx bench/compare-versions.ts --old ../base [--new .] [--rounds 8] [--window 3]
 *        [--scenarios chat,chat-stream,cross-stream,anthropic-stream] [--connections 64] [--rate N]
 *        [--restart-every N] [--gc] [--node-args='--flag …']
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cpuSeconds } from './proc-stats.js';
import { runLoad } from './run-load.js';
import { scenarioById } from './scenarios.js';
import { ensureGengateBuilt, GENGATE_KEY, removeWorkDir, startGengate, startMock, UPSTREAM_KEY } from './start-servers.js';

const { values } = parseArgs({
  options: {
    old: { type: 'string' },
    new: { type: 'string', default: '.' },
    rounds: { type: 'string', default: '8' },
    window: { type: 'string', default: '3' },
    scenarios: { type: 'string', default: 'chat,chat-stream,cross-stream,anthropic-stream' },
    connections: { type: 'string', default: '64' },
    rate: { type: 'string' },
    'restart-every': { type: 'string' },
    gc: { type: 'boolean', default: false },
    'node-args': { type: 'string', default: '' },
  },
});
if (!values.old) throw new Error('--old DIR: the gengate checkout to compare against');
const roots = { old: resolve(values.old), new: resolve(values.new) };
const rounds = Number(values.rounds);
const windowSec = Number(values.window);
const connections = Number(values.connections);
const scenarios = values.scenarios.split(',');
const rate = values.rate === undefined ? undefined : Number(values.rate);
const restartEvery = values['restart-every'] === undefined ? rounds : Math.max(1, Number(values['restart-every']));
const print = (line: string): void => void process.stdout.write(`${line}\n`);
const GC_PRELOAD = join(import.meta.dirname, 'gc-stats-preload.mjs');
const nodeArgs = [...(values.gc ? ['--import', GC_PRELOAD] : []), ...values['node-args'].split(' ').filter(Boolean)];

for (const root of Object.values(roots)) ensureGengateBuilt(root, print);
const mock = await startMock();
const startBoth = async () => ({
  old: await startGengate({ mockPort: mock.port, mode: 'dist', root: roots.old, nodeArgs }),
  new: await startGengate({ mockPort: mock.port, mode: 'dist', root: roots.new, nodeArgs }),
});
const stopBoth = async (running: Awaited<ReturnType<typeof startBoth>>): Promise<void> => {
  for (const server of Object.values(running)) {
    await server.stop();
    removeWorkDir(server.workDir);
  }
};
let servers = await startBoth();
type Figures = { old: number[]; new: number[] };
const figures: Record<string, Figures> = {};
const marginal: Record<string, Figures> = {};
const idleMs: Figures = { old: [], new: [] };
const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));
type GcTotals = { young: number; full: number; youngMs: number; fullMs: number; oldGrowthBytes: number };
const gcPerRequest: Record<string, { old: GcTotals[]; new: GcTotals[] }> = {};
/** The server's GC totals so far (asked for with SIGUSR2, written to its work dir). */
const gcTotals = async (server: { pid: number; workDir: string }): Promise<GcTotals> => {
  const file = join(server.workDir, 'gc-stats.json');
  rmSync(file, { force: true });
  process.kill(server.pid, 'SIGUSR2');
  for (let waited = 0; waited < 5000; waited += 10) {
    await sleep(10);
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as GcTotals;
  }
  throw new Error(`no GC figures in ${file}`);
};
try {
  for (let round = 0; round < rounds; round++) {
    const fresh = round % restartEvery === 0;
    if (fresh && round > 0) {
      await stopBoth(servers);
      servers = await startBoth();
    }
    // a fresh process warms its JIT at full speed first, whatever the measured rate
    if (fresh) {
      for (const id of scenarios) {
        const request = scenarioById(id).request('gengate', { mockPort: mock.port, gengateKey: GENGATE_KEY, upstreamKey: UPSTREAM_KEY });
        for (const version of ['old', 'new'] as const) await runLoad({ baseUrl: servers[version].baseUrl, request, connections, durationSec: 2 });
      }
    }
    // both servers idle over the same seconds: CPU per second spent on background timers
    const idleStart = { old: cpuSeconds(servers.old.pid), new: cpuSeconds(servers.new.pid), at: performance.now() };
    if (rate !== undefined) await sleep(windowSec * 1000);
    const idleSec = (performance.now() - idleStart.at) / 1000;
    for (const version of ['old', 'new'] as const) idleMs[version].push(((cpuSeconds(servers[version].pid) - idleStart[version]) * 1000) / idleSec);
    for (const id of scenarios) {
      for (const version of round % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const)) {
        const server = servers[version];
        const request = scenarioById(id).request('gengate', { mockPort: mock.port, gengateKey: GENGATE_KEY, upstreamKey: UPSTREAM_KEY });
        const load = { baseUrl: server.baseUrl, request, connections, rate };
        await runLoad({ ...load, durationSec: 0.5 });
        const gcBefore = values.gc ? await gcTotals(server) : undefined;
        const before = cpuSeconds(server.pid);
        const result = await runLoad({ ...load, durationSec: windowSec });
        const cpuMs = (cpuSeconds(server.pid) - before) * 1000;
        let gcLine = '';
        if (gcBefore) {
          const after = await gcTotals(server);
          const per = Math.max(result.ok, 1);
          const window: GcTotals = {
            young: (after.young - gcBefore.young) / per,
            full: (after.full - gcBefore.full) / per,
            youngMs: (after.youngMs - gcBefore.youngMs) / per,
            fullMs: (after.fullMs - gcBefore.fullMs) / per,
            oldGrowthBytes: (after.oldGrowthBytes - gcBefore.oldGrowthBytes) / per,
          };
          gcPerRequest[id] ??= { old: [], new: [] };
          gcPerRequest[id][version].push(window);
          gcLine = `; GC per 1,000 requests: ${(window.young * 1000).toFixed(1)} young, ${(window.full * 1000).toFixed(2)} full; old generation +${(window.oldGrowthBytes / 1024).toFixed(1)} KB/request`;
        }
        const ms = cpuMs / Math.max(result.ok, 1);
        const idleShare = rate === undefined ? 0 : idleMs[version][round] * result.elapsedSec;
        const marginalMs = (cpuMs - idleShare) / Math.max(result.ok, 1);
        figures[id] ??= { old: [], new: [] };
        marginal[id] ??= { old: [], new: [] };
        figures[id][version].push(ms);
        marginal[id][version].push(marginalMs);
        const extra = rate === undefined ? '' : `, ${marginalMs.toFixed(3)} marginal, ${result.rps.toFixed(0)} req/s`;
        print(`round ${round} ${id} ${version}: ${ms.toFixed(3)} ms/request${extra} (${result.ok} ok, ${result.errors} errors)${gcLine}`);
      }
    }
  }
} finally {
  await stopBoth(servers);
  await mock.stop();
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const table = (title: string, rows: Record<string, Figures>): void => {
  print(`\n${title}\n\n| scenario | old ms/request (median) | new ms/request (median) | change | median of per-round new/old |\n|---|---|---|---|---|`);
  for (const id of scenarios) {
    const { old, new: now } = rows[id];
    const change = (median(now) / median(old) - 1) * 100;
    const ratio = median(now.map((value, i) => value / old[i]));
    print(`| ${id} | ${median(old).toFixed(3)} | ${median(now).toFixed(3)} | ${change >= 0 ? '+' : ''}${change.toFixed(1)} % | ${ratio.toFixed(3)} |`);
  }
};
table(rate === undefined ? 'Server CPU per request' : `Server CPU per request at ${rate} requests/s`, figures);
if (rate !== undefined) {
  print(`\nIdle CPU (median ms per second): old ${median(idleMs.old).toFixed(2)}, new ${median(idleMs.new).toFixed(2)}`);
  table('Marginal CPU per request (window CPU less the idle rate over its length)', marginal);
}
if (values.gc) {
  print('\nGarbage collection per request (medians of the windows)\n');
  print('| scenario | version | young per 1,000 | full per 1,000 | young ms | full ms | old generation growth |\n|---|---|---|---|---|---|---|');
  for (const id of scenarios) {
    for (const version of ['old', 'new'] as const) {
      const windows = gcPerRequest[id][version];
      const of = (pick: (totals: GcTotals) => number): number => median(windows.map(pick));
      print(
        `| ${id} | ${version} | ${(of((w) => w.young) * 1000).toFixed(1)} | ${(of((w) => w.full) * 1000).toFixed(2)} | ${of((w) => w.youngMs).toFixed(4)} | ${of((w) => w.fullMs).toFixed(4)} | ${(of((w) => w.oldGrowthBytes) / 1024).toFixed(1)} KB |`,
      );
    }
  }
}
