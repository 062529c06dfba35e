/**
 * Instructions per request of one gengate checkout, counted by valgrind's callgrind: unlike CPU
 * time, the count hardly moves with what else the host is doing, so two versions can be compared
 * to a per cent on a shared machine. The server runs under callgrind with counting off, is warmed
 * up, counted over a measured window, and the total is divided by the requests answered in it.
 * Everything runs about 50 times slower than natively; 8 connections (the default) keep the server
 * busy, 1 counts what a request costs on a quiet server.
 *
 *   node --import tsx bench/count-instructions.ts [--root .] [--scenario chat] [--warm 60] [--measure 40] [--connections 8]
 *        [--keep FILE (the callgrind output, for callgrind_annotate)] [--node-args='--flag …' (node flags for the server)]
 *
 * Needs valgrind (Debian's package `valgrind`). Prints one JSON line.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, spawnServer, waitForHttp } from './child-processes.js';
import { runLoad } from './run-load.js';
import { scenarioById } from './scenarios.js';
import { ensureGengateBuilt, gengateEnv, GENGATE_KEY, removeWorkDir, startMock, UPSTREAM_KEY } from './start-servers.js';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: '.' },
    scenario: { type: 'string', default: 'chat' },
    warm: { type: 'string', default: '60' },
    measure: { type: 'string', default: '40' },
    connections: { type: 'string', default: '8' },
    keep: { type: 'string' },
    'node-args': { type: 'string', default: '' },
  },
});
const root = resolve(values.root);
ensureGengateBuilt(root);
const mock = await startMock();
const port = await freePort();
const workDir = mkdtempSync(join(tmpdir(), 'gengate-callgrind-'));
const out = join(workDir, 'callgrind.out');
const callgrind = ['--tool=callgrind', '--instr-atstart=no', '--smc-check=all-non-file', `--callgrind-out-file=${out}`];
const server = spawnServer({
  name: 'gengate',
  command: 'valgrind',
  args: [...callgrind, process.execPath, ...values['node-args'].split(' ').filter(Boolean), join(root, 'dist/cli.js'), 'start'],
  env: { ...gengateEnv({ port, mockPort: mock.port, workDir }), ...scenarioById(values.scenario).gengateEnv?.(mock.port) },
  cwd: workDir,
  port,
});
try {
  await waitForHttp(server, '/healthz', 300_000);
  const request = scenarioById(values.scenario).request('gengate', { mockPort: mock.port, gengateKey: GENGATE_KEY, upstreamKey: UPSTREAM_KEY });
  const load = { baseUrl: server.baseUrl, request, connections: Number(values.connections) };
  await runLoad({ ...load, durationSec: Number(values.warm) });
  execFileSync('callgrind_control', ['--instr=on', String(server.pid)], { stdio: 'ignore' });
  const measured = await runLoad({ ...load, durationSec: Number(values.measure) });
  execFileSync('callgrind_control', ['--instr=off', String(server.pid)], { stdio: 'ignore' });
  execFileSync('callgrind_control', ['--dump', String(server.pid)], { stdio: 'ignore' });
  let instructions = 0;
  for (const file of readdirSync(workDir).filter((name) => name.startsWith('callgrind.out'))) {
    const totals = /^totals: (\d+)/m.exec(readFileSync(join(workDir, file), 'utf8'));
    if (totals && Number(totals[1]) > instructions) {
      instructions = Number(totals[1]);
      if (values.keep) copyFileSync(join(workDir, file), values.keep);
    }
  }
  const perRequest = Math.round(instructions / Math.max(measured.ok, 1));
  process.stdout.write(`${JSON.stringify({ root, scenario: values.scenario, requests: measured.ok, errors: measured.errors, instructions, perRequest })}\n`);
} finally {
  await server.stop(30_000);
  await mock.stop();
  removeWorkDir(workDir);
}
