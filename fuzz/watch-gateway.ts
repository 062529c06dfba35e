/**
 * Measured from outside the gateway, beside the load: its resident memory (from /proc), and its
 * event loop through a `/healthz` poller that runs in its own process (so the fuzzer's own work
 * never delays a probe) and reports each round trip.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { memory } from '../bench/proc-stats.js';

const PROBE_SCRIPT = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const port = Number(process.argv[1]);
function probe() {
  process.stdout.write('s\\n');
  const started = process.hrtime.bigint();
  const request = http.get({ host: '127.0.0.1', port, path: '/healthz', agent, timeout: 30000 }, (response) => {
    response.resume();
    response.on('end', () => {
      process.stdout.write(String(Number(process.hrtime.bigint() - started) / 1e6) + '\\n');
      setTimeout(probe, 20);
    });
  });
  request.on('timeout', () => request.destroy(new Error('timeout')));
  request.on('error', () => { process.stdout.write('error ' + String(Number(process.hrtime.bigint() - started) / 1e6) + '\\n'); setTimeout(probe, 100); });
}
probe();
`;

export interface GatewayWatch {
  /** Round trips of the /healthz probe, in ms. */
  probeMs: number[];
  probeErrors: number;
  /** When the probe now waiting for its answer was sent (Date.now()), if one is. */
  outstandingSince?: number;
  /** The last answered probe: when, and its round trip. */
  lastAnswer?: { at: number; ms: number };
  rssSamples: number[];
  stop(): Promise<void>;
}

export function watchGateway(pid: number, port: number): GatewayWatch {
  const watch: GatewayWatch = { probeMs: [], probeErrors: 0, rssSamples: [], stop: async () => {} };
  const probe = spawn(process.execPath, ['-e', PROBE_SCRIPT, String(port)], { stdio: ['ignore', 'pipe', 'ignore'] });
  createInterface({ input: probe.stdout }).on('line', (line) => {
    if (line === 's') {
      watch.outstandingSince = Date.now();
      return;
    }
    watch.outstandingSince = undefined;
    if (line.startsWith('error')) {
      watch.probeErrors += 1;
      watch.probeMs.push(Number(line.slice(6)));
    } else {
      watch.probeMs.push(Number(line));
      watch.lastAnswer = { at: Date.now(), ms: Number(line) };
    }
  });
  const sampler = setInterval(() => {
    try {
      watch.rssSamples.push(memory(pid).rss);
    } catch {
      // the process is gone; the runner notices
    }
  }, 100);
  watch.stop = async () => {
    clearInterval(sampler);
    if (probe.exitCode === null) {
      const exited = new Promise((resolve) => probe.once('exit', resolve));
      probe.kill('SIGTERM');
      await exited;
    }
  };
  return watch;
}
