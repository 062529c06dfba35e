/**
 * CPU per request of two gengate checkouts side by side, robust to a busy machine: both run at
 * once behind one mock upstream and are loaded in turn, in short windows, the order swapped
 * every round; each window's server CPU (from /proc) is divided by its answers. Medians and the
 * median of the per-round ratios are printed; the build of each checkout is refreshed first.
 *
 *   node --import tsx bench/compare-versions.ts --old ../base [--new .] [--rounds 8] [--window 3]
 *        [--scenarios chat,chat-stream,cross-stream,anthropic-stream] [--connections 64]
 */
import { resolve } from 'node:path';
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
  },
});
if (!values.old) throw new Error('--old DIR: the gengate checkout to compare against');
const roots = { old: resolve(values.old), new: resolve(values.new) };
const rounds = Number(values.rounds);
const windowSec = Number(values.window);
const connections = Number(values.connections);
const scenarios = values.scenarios.split(',');
const print = (line: string): void => void process.stdout.write(`${line}\n`);

for (const root of Object.values(roots)) ensureGengateBuilt(root, print);
const mock = await startMock();
const servers = {
  old: await startGengate({ mockPort: mock.port, mode: 'dist', root: roots.old }),
  new: await startGengate({ mockPort: mock.port, mode: 'dist', root: roots.new }),
};
const figures: Record<string, { old: number[]; new: number[] }> = {};
try {
  for (let round = 0; round < rounds; round++) {
    for (const id of scenarios) {
      for (const version of round % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const)) {
        const server = servers[version];
        const request = scenarioById(id).request('gengate', { mockPort: mock.port, gengateKey: GENGATE_KEY, upstreamKey: UPSTREAM_KEY });
        const load = { baseUrl: server.baseUrl, request, connections };
        await runLoad({ ...load, durationSec: round === 0 ? 1.5 : 0.5 });
        const before = cpuSeconds(server.pid);
        const result = await runLoad({ ...load, durationSec: windowSec });
        const ms = ((cpuSeconds(server.pid) - before) * 1000) / Math.max(result.ok, 1);
        figures[id] ??= { old: [], new: [] };
        figures[id][version].push(ms);
        print(`round ${round} ${id} ${version}: ${ms.toFixed(3)} ms/request (${result.ok} ok, ${result.errors} errors)`);
      }
    }
  }
} finally {
  for (const server of Object.values(servers)) {
    await server.stop();
    removeWorkDir(server.workDir);
  }
  await mock.stop();
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
print('\n| scenario | old ms/request (median) | new ms/request (median) | change | median of per-round new/old |\n|---|---|---|---|---|');
for (const id of scenarios) {
  const { old, new: now } = figures[id];
  const change = (median(now) / median(old) - 1) * 100;
  const ratio = median(now.map((value, i) => value / old[i]));
  print(`| ${id} | ${median(old).toFixed(3)} | ${median(now).toFixed(3)} | ${change >= 0 ? '+' : ''}${change.toFixed(1)} % | ${ratio.toFixed(3)} |`);
}
