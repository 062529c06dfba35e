/**
 * Where the CPU per request of two gengate checkouts differs: each runs in turn under
 * `node --cpu-prof` behind one mock, is loaded with one scenario, and its self time per answered
 * request is grouped by function (name and file, not line, so that moved code still matches) and
 * by area; the largest differences are printed. Both run at once and are loaded in turn, for
 * `--rounds` windows each (order swapped every round), so that a busy neighbour on the host
 * weighs on both alike.
 *
 *   node --import tsx bench/profile-compare.ts --old ../base [--new .] [--scenario chat-stream]
 *        [--seconds 8 (per window)] [--rounds 1] [--connections 64] [--top 40] [--keep DIR (where the two .cpuprofile files are kept)]
 *        [--interval 200 (µs between samples)] [--rate N (requests/s measured, after a warm-up at full speed)]
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { areaOf, type CpuProfile, shortLocation } from './cpu-profile-summary.js';
import { runLoad } from './run-load.js';
import { scenarioById } from './scenarios.js';
import { ensureGengateBuilt, GENGATE_KEY, removeWorkDir, startGengate, startMock, UPSTREAM_KEY } from './start-servers.js';

const { values } = parseArgs({
  options: {
    old: { type: 'string' },
    new: { type: 'string', default: '.' },
    scenario: { type: 'string', default: 'chat-stream' },
    seconds: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '1' },
    connections: { type: 'string', default: '64' },
    rate: { type: 'string' },
    top: { type: 'string', default: '40' },
    keep: { type: 'string' },
    interval: { type: 'string', default: '200' },
    'node-args': { type: 'string' },
  },
});
if (!values.old) throw new Error('--old DIR: the gengate checkout to compare against');
const roots = { old: resolve(values.old), new: resolve(values.new) };
const print = (line: string): void => void process.stdout.write(`${line}\n`);

interface Tally {
  requests: number;
  byFunction: Map<string, number>;
  byArea: Map<string, number>;
  totalMs: number;
}

interface Window {
  startUs: number;
  endUs: number;
}

function tally(profile: CpuProfile, root: string, windows: Window[], requests: number): Tally {
  const nodeById = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byArea = new Map<string, number>();
  let totalMs = 0;
  let at = profile.startTime;
  const samples = profile.samples ?? [];
  for (let i = 0; i < samples.length; i++) {
    const delta = profile.timeDeltas?.[i] ?? 0;
    at += delta;
    if (!windows.some((window) => at >= window.startUs && at <= window.endUs)) continue;
    const node = nodeById.get(samples[i]);
    if (!node || node.callFrame.functionName === '(idle)') continue;
    const ms = delta / 1000;
    totalMs += ms;
    const location = shortLocation(node.callFrame.url, root);
    const file = location ? location.replace(/^(src|dist)\//, '').replace(/\.(ts|js)$/, '') : '';
    const key = `${node.callFrame.functionName || '(anonymous)'} ${file ? basename(file) : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    const area = location ? areaOf(location).replace(/^(src|dist)\//, '') : node.callFrame.functionName;
    byArea.set(area, (byArea.get(area) ?? 0) + ms);
  }
  return { requests, byFunction, byArea, totalMs };
}

type Version = 'old' | 'new';

async function profileBoth(mockPort: number): Promise<Record<Version, Tally>> {
  const nodeArgs = ['--cpu-prof', '--cpu-prof-dir=prof', `--cpu-prof-interval=${values.interval}`, ...(values['node-args'] ?? '').split(' ').filter(Boolean)];
  const servers = {
    old: await startGengate({ mockPort, mode: 'dist', root: roots.old, nodeArgs }),
    new: await startGengate({ mockPort, mode: 'dist', root: roots.new, nodeArgs }),
  };
  const windows: Record<Version, Window[]> = { old: [], new: [] };
  const requests: Record<Version, number> = { old: 0, new: 0 };
  const rate = values.rate === undefined ? undefined : Number(values.rate);
  try {
    const request = scenarioById(values.scenario).request('gengate', { mockPort, gengateKey: GENGATE_KEY, upstreamKey: UPSTREAM_KEY });
    const loadOf = (version: Version) => ({ baseUrl: servers[version].baseUrl, request, connections: Number(values.connections) });
    for (const version of ['old', 'new'] as const) await runLoad({ ...loadOf(version), durationSec: 3 });
    for (let round = 0; round < Number(values.rounds); round++) {
      for (const version of round % 2 === 0 ? (['old', 'new'] as const) : (['new', 'old'] as const)) {
        await runLoad({ ...loadOf(version), rate, durationSec: 0.5 });
        const startUs = Number(process.hrtime.bigint() / 1000n);
        const result = await runLoad({ ...loadOf(version), rate, durationSec: Number(values.seconds) });
        windows[version].push({ startUs, endUs: Number(process.hrtime.bigint() / 1000n) });
        requests[version] += result.ok;
      }
    }
    const tallies = {} as Record<Version, Tally>;
    for (const version of ['old', 'new'] as const) {
      const server = servers[version];
      await server.stop(20_000);
      const dir = join(server.workDir, 'prof');
      const name = readdirSync(dir).find((file) => file.endsWith('.cpuprofile'));
      if (!name) throw new Error('no .cpuprofile written');
      if (values.keep) {
        mkdirSync(values.keep, { recursive: true });
        copyFileSync(join(dir, name), join(values.keep, `${version}-${values.scenario}.cpuprofile`));
      }
      tallies[version] = tally(JSON.parse(readFileSync(join(dir, name), 'utf8')) as CpuProfile, roots[version], windows[version], requests[version]);
    }
    return tallies;
  } finally {
    for (const server of Object.values(servers)) {
      await server.stop();
      removeWorkDir(server.workDir);
    }
  }
}

function printDiff(title: string, old: Tally, now: Tally, pick: (t: Tally) => Map<string, number>, top: number): void {
  const perRequest = (t: Tally, key: string): number => ((pick(t).get(key) ?? 0) * 1000) / Math.max(t.requests, 1);
  const keys = new Set([...pick(old).keys(), ...pick(now).keys()]);
  const rows = [...keys].map((key) => ({ key, old: perRequest(old, key), now: perRequest(now, key) }));
  rows.sort((a, b) => Math.abs(b.now - b.old) - Math.abs(a.now - a.old));
  print(`\n## ${title} (µs per request; positive = new costs more)\n`);
  print('| where | old | new | diff |\n|---|---|---|---|');
  for (const row of rows.slice(0, top)) print(`| ${row.key} | ${row.old.toFixed(1)} | ${row.now.toFixed(1)} | ${(row.now - row.old).toFixed(1)} |`);
}

for (const root of Object.values(roots)) ensureGengateBuilt(root, print);
const mock = await startMock();
try {
  const { old, new: now } = await profileBoth(mock.port);
  const us = (t: Tally): string => ((t.totalMs * 1000) / Math.max(t.requests, 1)).toFixed(1);
  print(`scenario ${values.scenario}: old ${us(old)} µs/request busy (${old.requests} requests), new ${us(now)} µs/request (${now.requests} requests)`);
  printDiff('by area', old, now, (t) => t.byArea, 30);
  printDiff('by function', old, now, (t) => t.byFunction, Number(values.top));
} finally {
  await mock.stop();
}
