/**
 * The task engine under load: `npm run bench:tasks [-- --postgres]`. Starts a real gateway
 * process with the sandbox's tasks taking `--task-ms` each, submits `--tasks` imagine tasks
 * over HTTP with bounded concurrency, then watches the database (one grouped count every
 * half second, never a fetch per task) until every task ended or `--timeout-s` passed, and
 * reports the submit rate, the poller's throughput, the database's write rate, the gateway's
 * CPU and memory and how late tasks were marked finished. Everything runs on 127.0.0.1; the
 * gateway, its work dir and any temporary PostgreSQL database are removed at the end.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { Pool } from 'undici';
import { sandboxTaskPollPolicy } from '../src/sandbox/tasks/task-poll-policy.js';
import { createTempDatabase, type TempDatabase } from '../test/helpers/postgres.js';
import { baseEnv, type ChildServer, freePort, installSignalCleanup, REPO_ROOT, spawnServer, TSX_LOADER, waitForHttp } from './child-processes.js';
import { percentile } from './percentiles.js';
import { cpuSeconds, meterProcess } from './proc-stats.js';
import { ensureGengateBuilt, GENGATE_KEY, removeWorkDir } from './start-servers.js';
import { type DbProbe, postgresProbe, type ServerCounters, sqliteProbe } from './tasks-load-db.js';
import { type EndedTask, lateness, meanPollIntervalMs, observations, onTimePolls, peakInFlight, rowWrites } from './tasks-load-figures.js';

interface Args {
  postgres: boolean;
  tasks: number;
  taskMs: number;
  submitConcurrency: number;
  timeoutSec: number;
  tsx: boolean;
  /** imagine (the sandbox draws and encodes a 1024² grid at submit: CPU-heavy) or describe (a 64² image: cheap). */
  operation: 'imagine' | 'describe';
  /** The gengate checkout to run (default: this one), e.g. the version before a change. */
  root: string;
  /** `tasks.pollConcurrency` / `tasks.claimBatch` for the gateway, when set (else its defaults). */
  pollConcurrency?: number;
  claimBatch?: number;
}

const USAGE = `npm run bench:tasks -- [flags]
  --postgres              a temporary PostgreSQL database (GENGATE_TEST_POSTGRES_URL's server) instead of SQLite
  --tasks N               tasks to submit (default 1000, at most 20000)
  --task-ms MS            each sandbox task's duration (default 150000: longer than submitting 1,000 imagines takes here, so all are in flight together)
  --submit-concurrency N  submits in flight at once (default 16)
  --timeout-s S           the whole run's limit (default 600)
  --poll-concurrency N    the gateway's tasks.pollConcurrency (default: its own)
  --claim-batch N         the gateway's tasks.claimBatch (default: its own)
  --operation OP          imagine (default) or describe: an imagine submit costs the sandbox ~0.2 s of CPU
                          to draw its grid, a describe of a 64×64 image almost nothing
  --gengate-root DIR      run another checkout of gengate (built there when stale), to compare versions
  --tsx                   run src/ through tsx instead of the built dist/`;

function parseArgs(argv: string[]): Args {
  const args: Args = {
    postgres: false,
    tasks: 1000,
    taskMs: 150_000,
    submitConcurrency: 16,
    timeoutSec: 600,
    tsx: false,
    operation: 'imagine',
    root: REPO_ROOT,
  };
  const bounded = (flag: string, value: string | undefined, min: number, max: number): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${flag} takes an integer from ${min} to ${max}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = (): string | undefined => argv[++i];
    if (flag === '--postgres') args.postgres = true;
    else if (flag === '--tsx') args.tsx = true;
    else if (flag === '--operation') {
      const op = value();
      if (op !== 'imagine' && op !== 'describe') throw new Error('--operation takes imagine or describe');
      args.operation = op;
    } else if (flag === '--gengate-root') args.root = resolve(value() ?? '.');
    else if (flag === '--tasks') args.tasks = bounded(flag, value(), 1, 20_000);
    else if (flag === '--task-ms') args.taskMs = bounded(flag, value(), 100, 600_000);
    else if (flag === '--submit-concurrency') args.submitConcurrency = bounded(flag, value(), 1, 256);
    else if (flag === '--timeout-s') args.timeoutSec = bounded(flag, value(), 10, 3_600);
    else if (flag === '--poll-concurrency') args.pollConcurrency = bounded(flag, value(), 1, 256);
    else if (flag === '--claim-batch') args.claimBatch = bounded(flag, value(), 1, 10_000);
    else if (flag === '--help' || flag === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    } else throw new Error(`unknown flag ${flag}\n${USAGE}`);
  }
  return args;
}

const log = (line: string): void => {
  process.stderr.write(`[tasks-load ${new Date().toISOString().slice(11, 19)}] ${line}\n`);
};

async function startGateway(args: Args, workDir: string, databaseUrl: string): Promise<ChildServer> {
  const port = await freePort();
  const tasks: Record<string, number> = {};
  if (args.pollConcurrency !== undefined) tasks.pollConcurrency = args.pollConcurrency;
  if (args.claimBatch !== undefined) tasks.claimBatch = args.claimBatch;
  // The gateway reads gengate.yaml from its cwd, the work dir: only these settings, never a developer's file.
  writeFileSync(join(workDir, 'gengate.yaml'), Object.keys(tasks).length > 0 ? `tasks: ${JSON.stringify(tasks)}\n` : '{}\n');
  const env = baseEnv({
    NODE_ENV: 'production',
    GENGATE_HOST: '127.0.0.1',
    GENGATE_PORT: String(port),
    GENGATE_DATABASE_URL: databaseUrl,
    GENGATE_DATA_DIR: join(workDir, 'data'),
    GENGATE_MASTER_KEY: GENGATE_KEY,
    GENGATE_ACCESS_LOG: 'false',
    GENGATE_LOG_LEVEL: 'warn',
    GENGATE_SANDBOX: 'true',
    GENGATE_SANDBOX_TASK_MS: String(args.taskMs),
  });
  const entry = args.tsx ? ['--import', TSX_LOADER, join(args.root, 'src/cli.ts')] : [join(args.root, 'dist/cli.js')];
  const server = spawnServer({ name: 'gengate', command: process.execPath, args: [...entry, 'start'], env, cwd: workDir, port });
  await waitForHttp(server, '/healthz', 60_000);
  return server;
}

interface SubmitResult {
  accepted: number;
  errors: number;
  firstError?: string;
  startedAt: number;
  endedAt: number;
  latencies: number[];
}

/** The request of task `i`: an imagine prompt, or a describe of one small image. */
async function submitBodies(operation: Args['operation']): Promise<(i: number) => { path: string; body: string }> {
  if (operation === 'imagine') return (i) => ({ path: '/imgtask/submit/imagine', body: JSON.stringify({ prompt: `load test task ${i}` }) });
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r: 40, g: 90, b: 200 } } })
    .png()
    .toBuffer();
  const body = JSON.stringify({ base64: `data:image/png;base64,${png.toString('base64')}` });
  return () => ({ path: '/imgtask/submit/describe', body });
}

/** Submits `count` tasks with at most `concurrency` in flight, stopping at `deadline`. */
async function submitAll(
  baseUrl: string,
  bodyOf: (i: number) => { path: string; body: string },
  count: number,
  concurrency: number,
  deadline: number,
): Promise<SubmitResult> {
  const pool = new Pool(baseUrl, { connections: concurrency, headersTimeout: 60_000, bodyTimeout: 60_000 });
  const result: SubmitResult = { accepted: 0, errors: 0, startedAt: Date.now(), endedAt: 0, latencies: [] };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count && Date.now() < deadline) {
      const { path, body } = bodyOf(next++);
      const sentAt = performance.now();
      try {
        const response = await pool.request({
          path,
          method: 'POST',
          headers: { authorization: `Bearer ${GENGATE_KEY}`, 'content-type': 'application/json' },
          body,
        });
        const answer = (await response.body.json()) as { code?: number; result?: string; description?: string };
        if (response.statusCode === 200 && answer.code === 1 && typeof answer.result === 'string') {
          result.accepted++;
          result.latencies.push(performance.now() - sentAt);
        } else {
          result.errors++;
          result.firstError ??= `${response.statusCode} ${JSON.stringify(answer).slice(0, 200)}`;
        }
      } catch (error) {
        result.errors++;
        result.firstError ??= (error as Error).message;
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await pool.close();
  }
  result.endedAt = Date.now();
  return result;
}

interface Watch {
  samples: number;
  maxOverdue: number;
  maxActive: number;
  ended: number;
  timedOut: boolean;
}

const ENDED = ['succeeded', 'failed', 'canceled'];

/** Counts task states every 500 ms until `expected` tasks ended or `deadline` passed. */
async function watchUntilEnded(probe: DbProbe, expected: () => number, submitting: () => boolean, deadline: number): Promise<Watch> {
  const watch: Watch = { samples: 0, maxOverdue: 0, maxActive: 0, ended: 0, timedOut: false };
  let lastLog = 0;
  for (;;) {
    const counts = await probe.counts(Date.now());
    watch.samples++;
    watch.ended = ENDED.reduce((sum, status) => sum + (counts.byStatus[status] ?? 0), 0);
    watch.maxActive = Math.max(watch.maxActive, (counts.byStatus.submitted ?? 0) + (counts.byStatus.running ?? 0));
    watch.maxOverdue = Math.max(watch.maxOverdue, counts.overdue);
    if (Date.now() - lastLog > 5_000) {
      log(`tasks by status ${JSON.stringify(counts.byStatus)}, overdue > 0.5 s: ${counts.overdue}`);
      lastLog = Date.now();
    }
    if (!submitting() && watch.ended >= expected()) return watch;
    if (Date.now() > deadline) return { ...watch, timedOut: true };
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

const round = (n: number, digits = 1): number => Number(n.toFixed(digits));

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  installSignalCleanup();
  const deadline = Date.now() + args.timeoutSec * 1000;
  if (!args.tsx) ensureGengateBuilt(args.root, log);
  const workDir = mkdtempSync(join(tmpdir(), 'gengate-tasks-load-'));
  let temp: TempDatabase | undefined;
  let gateway: ChildServer | undefined;
  let probe: DbProbe | undefined;
  try {
    if (args.postgres) temp = await createTempDatabase();
    const sqlitePath = join(workDir, 'tasks.db');
    const databaseUrl = temp ? temp.url : `sqlite:${sqlitePath}`;
    gateway = await startGateway(args, workDir, databaseUrl);
    log(`gateway pid ${gateway.pid} on ${gateway.baseUrl}, ${args.postgres ? 'PostgreSQL' : 'SQLite'}, tasks of ${args.taskMs} ms`);
    probe = temp ? await postgresProbe(temp.url) : sqliteProbe(sqlitePath);
    const loadAtStart = loadavg();
    const countersBefore = await probe.serverCounters();
    const statementsBefore = probe.statements;
    const meter = meterProcess(gateway.pid);
    const cpuAtStart = cpuSeconds(gateway.pid);

    let submitting = true;
    let submitted: SubmitResult | undefined;
    let cpuAtSubmitEnd = cpuAtStart;
    const bodyOf = await submitBodies(args.operation);
    const submits = submitAll(gateway.baseUrl, bodyOf, args.tasks, args.submitConcurrency, deadline).then((result) => {
      submitting = false;
      submitted = result;
      cpuAtSubmitEnd = cpuSeconds(gateway!.pid);
      log(`submitted ${result.accepted} (errors ${result.errors}) in ${((result.endedAt - result.startedAt) / 1000).toFixed(1)} s`);
      return result;
    });
    const watch = await watchUntilEnded(
      probe,
      () => submitted?.accepted ?? args.tasks,
      () => submitting,
      deadline,
    );
    const submit = await submits;
    const doneAt = Date.now();
    const usage = meter.stop();
    const cpuAtEnd = cpuSeconds(gateway.pid);
    const loadAtEnd = loadavg();

    const tasks: EndedTask[] = await probe.ended();
    const other = await probe.otherRows();
    let counters: ServerCounters | undefined;
    if (countersBefore) {
      // Stopping the gateway closes its connections, whose backends then flush their statistics.
      const statementsAtEnd = probe.statements;
      await gateway.stop();
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const after = await probe.serverCounters();
      if (after) {
        counters = {
          commits: after.commits - countersBefore.commits - (statementsAtEnd - statementsBefore),
          inserted: after.inserted - countersBefore.inserted,
          updated: after.updated - countersBefore.updated,
        };
      }
    }

    const finished = tasks.filter((task) => task.finishedAt !== null);
    const lastFinish = Math.max(...finished.map((task) => task.finishedAt as number));
    const windowSec = (lastFinish - submit.startedAt) / 1000;
    const submitSec = (submit.endedAt - submit.startedAt) / 1000;
    const polls = observations(tasks);
    const writes = rowWrites(tasks, other);
    const late = lateness(tasks).sort((a, b) => a - b);
    const submitLatency = submit.latencies.sort((a, b) => a - b);
    const statuses: Record<string, number> = {};
    for (const task of tasks) statuses[task.status] = (statuses[task.status] ?? 0) + 1;
    const report = {
      database: args.postgres ? 'postgres' : 'sqlite',
      settings: {
        operation: args.operation,
        gengate: args.root === REPO_ROOT ? 'this checkout' : args.root,
        tasks: args.tasks,
        taskMs: args.taskMs,
        submitConcurrency: args.submitConcurrency,
        pollConcurrency: args.pollConcurrency ?? 'default',
        claimBatch: args.claimBatch ?? 'default',
      },
      loadAverage: { atStart: loadAtStart.map((n) => round(n, 2)), atEnd: loadAtEnd.map((n) => round(n, 2)) },
      allEnded: !watch.timedOut && finished.length === tasks.length,
      statuses,
      submit: {
        accepted: submit.accepted,
        errors: submit.errors,
        firstError: submit.firstError,
        seconds: round(submitSec, 2),
        perSecond: round(submit.accepted / submitSec),
        latencyMs: { p50: round(percentile(submitLatency, 50)), p99: round(percentile(submitLatency, 99)) },
      },
      peakInFlight: peakInFlight(tasks),
      secondsUntilAllEnded: round(windowSec, 2),
      secondsAfterLastSubmit: round((lastFinish - submit.endedAt) / 1000, 2),
      polls: {
        observations: polls,
        perSecond: round(polls / windowSec),
        perTask: round(polls / Math.max(1, finished.length), 2),
        onTimePerTask: onTimePolls(sandboxTaskPollPolicy(args.taskMs), args.taskMs),
        meanIntervalMs: round(meanPollIntervalMs(tasks)),
        maxOverdueBacklog: watch.maxOverdue,
      },
      dbWrites: {
        rowsInserted: writes.inserted,
        rowsUpdated: writes.updated,
        rowsPerSecond: round(writes.total / windowSec),
        ...(counters
          ? {
              postgres: {
                commits: counters.commits,
                commitsPerSecond: round(counters.commits / windowSec),
                tuplesWritten: counters.inserted + counters.updated,
                tuplesPerSecond: round((counters.inserted + counters.updated) / windowSec),
              },
            }
          : {}),
        otherRows: other,
      },
      gateway: {
        cpuSeconds: round(cpuAtEnd - cpuAtStart, 2),
        cpuCores: round(usage.cpuCores, 2),
        cpuSecondsSubmitting: round(cpuAtSubmitEnd - cpuAtStart, 2),
        cpuCoresAfterSubmits: round((cpuAtEnd - cpuAtSubmitEnd) / Math.max(0.001, (doneAt - submit.endedAt) / 1000), 2),
        peakRssMB: round(usage.peakRssBytes / 2 ** 20),
      },
      latenessMs: late.length > 0 ? { p50: percentile(late, 50), p95: percentile(late, 95), max: late[late.length - 1] } : undefined,
    };
    const resultsDir = join(REPO_ROOT, 'bench/results');
    mkdirSync(resultsDir, { recursive: true });
    const file = join(resultsDir, `tasks-load-${report.database}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    log(`written to ${file}`);
    if (!report.allEnded) process.exitCode = 1;
  } finally {
    await probe?.close().catch(() => undefined);
    await gateway?.stop();
    await temp?.drop().catch((error) => log(`could not drop the temporary database: ${(error as Error).message}`));
    removeWorkDir(workDir);
  }
}

main().catch((error) => {
  log((error as Error).stack ?? String(error));
  process.exit(1);
});
