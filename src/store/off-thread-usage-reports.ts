/**
 * Usage reports of a SQLite file, prepared on a worker thread with its own read-only connection
 * (better-sqlite3 is synchronous: on the event loop a year of rollups held every request for
 * seconds). One report at a time, at most `MAX_PENDING_REPORTS` waiting (more is a 503), each
 * within `timeoutMs` from the moment the worker takes it (a slower one is the caller's 413). SQLite
 * cannot be interrupted mid-statement, so a timed-out report's worker is terminated and the
 * next report waits until that thread has really ended: at most one report's SQL runs at once. The
 * worker starts on the first report and does not keep the process alive while idle.
 */
import { Worker } from 'node:worker_threads';
import { GatewayError, type ErrorKind } from '../core/errors.js';
import { reportTooLarge, type UsageQuery, type UsageReport } from './usage-report.js';
import type { ReportAnswer, ReportFailure, ReportWorkerData } from './usage-report-worker.js';

const MAX_PENDING_REPORTS = 8;

/** The built worker (`.js` beside this module), or, when running from sources, the `.ts` one loaded through tsx. */
function startWorker(data: ReportWorkerData): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./usage-report-worker.js', import.meta.url), { workerData: data });
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./usage-report-worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true, workerData: data });
}

function unavailable(cause?: unknown): GatewayError {
  return new GatewayError('internal', 'The usage report could not be prepared.', { cause });
}

function errorOf(failure: ReportFailure): GatewayError {
  if (failure.kind === 'internal') return unavailable(new Error(failure.message));
  return new GatewayError(failure.kind as ErrorKind, failure.message, { code: failure.code, param: failure.param });
}

export class OffThreadUsageReports {
  private worker?: Promise<Worker>;
  /** A terminated worker still finishing its statement; the next report waits for it. */
  private ending?: Promise<unknown>;
  private queue: Promise<unknown> = Promise.resolve();
  private pending = 0;
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly data: ReportWorkerData,
    private readonly timeoutMs: number,
  ) {}

  summarize(query: UsageQuery): Promise<UsageReport> {
    if (this.closed) return Promise.reject(new GatewayError('overloaded', 'The gateway is shutting down.'));
    if (this.pending >= MAX_PENDING_REPORTS) {
      return Promise.reject(
        new GatewayError('overloaded', 'Too many usage reports are being prepared; try again in a moment.', { code: 'reports_busy', retryAfter: 1 }),
      );
    }
    this.pending++;
    const run = this.queue.then(() => this.run(query));
    this.queue = run.catch(() => undefined);
    return run.finally(() => this.pending--);
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.worker = undefined;
    await Promise.all([worker?.then((w) => w.terminate()).catch(() => undefined), this.ending]);
  }

  private async run(query: UsageQuery): Promise<UsageReport> {
    if (this.closed) throw new GatewayError('overloaded', 'The gateway is shutting down.');
    const worker = await this.ready();
    const id = ++this.nextId;
    worker.ref();
    return new Promise<UsageReport>((resolve, reject) => {
      const settle = (outcome: () => void): void => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onError);
        worker.unref();
        outcome();
      };
      const onMessage = (answer: ReportAnswer): void => {
        if (answer.type === 'report' && answer.id === id) settle(() => resolve(answer.report));
        else if (answer.type === 'failed' && answer.id === id) settle(() => reject(errorOf(answer.failure)));
      };
      const onError = (error: unknown): void =>
        settle(() => {
          this.discard(worker);
          reject(unavailable(error));
        });
      const timer = setTimeout(
        () =>
          settle(() => {
            this.discard(worker);
            reject(reportTooLarge(`took longer than ${this.timeoutMs} ms`));
          }),
        this.timeoutMs,
      );
      worker.on('message', onMessage).once('error', onError).once('exit', onError);
      worker.postMessage({ id, query });
    });
  }

  /** The worker, started (and its database opened) if there is none; after a terminated one has ended. */
  private async ready(): Promise<Worker> {
    await this.ending;
    if (this.worker) return this.worker;
    const starting = new Promise<Worker>((resolve, reject) => {
      const worker = startWorker(this.data);
      const fail = (error: unknown): void => {
        this.discard(worker);
        reject(unavailable(error));
      };
      worker.once('error', fail).once('exit', fail);
      worker.once('message', (answer: ReportAnswer) => {
        worker.off('error', fail).off('exit', fail);
        if (answer.type !== 'ready') return fail(new Error('the usage report worker did not start'));
        // A worker that dies while idle is replaced by the next report (and its error is no crash).
        const forget = (): void => {
          if (this.worker === starting) this.worker = undefined;
        };
        worker.on('error', forget).on('exit', forget);
        // An idle worker never keeps the process alive; a running report refs it.
        worker.unref();
        resolve(worker);
      });
    });
    this.worker = starting;
    return starting;
  }

  private discard(worker: Worker): void {
    this.worker = undefined;
    this.ending = worker.terminate().catch(() => undefined);
  }
}
