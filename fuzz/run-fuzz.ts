/**
 * The fuzz run: a real gateway as a child process, `requests` generated hostile requests from
 * `concurrency` workers, raw-socket cases beside them, and the gateway watched from outside.
 * Findings: any 5xx, a crash, an answer that never comes, an error body not in its route's
 * family shape (or echoing kilobytes of input), an event-loop stall over 200 ms, RSS more than
 * 512 MB above idle, a connection with an unfinished request kept open past the cutoff, a
 * client's model id reaching the upstream URL as more than one path segment, and after the
 * load: a call's usage row missing, or a restart on the same data that does not listen.
 */
import { Client, Pool } from 'undici';
import { afterRunChecks } from './after-run-checks.js';
import { errorShapeProblem } from './error-shapes.js';
import { type Attack, type CaseContext, type FuzzCase, generateCase } from './generate-case.js';
import { buildHostileImages } from './hostile-images.js';
import { promptRawCases, type RawCase, sendRaw, stalledRawCases } from './raw-socket-cases.js';
import { ROUTES, withValidImages } from './routes.js';
import { FUZZ_KEY, type FuzzGateway, startFuzzGateway } from './start-gateway.js';
import { watchGateway } from './watch-gateway.js';
import { startWildcardUpstream, upstreamRequestProblem } from './wildcard-upstream.js';

export interface FuzzOptions {
  seed: number;
  requests: number;
  /** Wall-clock bound: no new request starts after this. */
  seconds: number;
  concurrency: number;
  /** Rounds of the prompt raw-socket cases. */
  rawRounds: number;
  /** How long the stalled connections are held; they are judged only when this exceeds the cutoff. */
  stallHoldMs: number;
  /** Run this case index alone (a reproducer). */
  only?: number;
  /** The gateway's database (`postgres://…`); default a SQLite file in its temporary data directory. */
  databaseUrl?: string;
  /** Only these attack classes (all when absent). */
  attacks?: readonly Attack[];
  log?: (line: string) => void;
}

/** The flags a replay needs besides `--seed` and `--only`. */
export function replayFlagsOf(options: Pick<FuzzOptions, 'databaseUrl' | 'attacks'>): string {
  return `${options.databaseUrl?.startsWith('postgres') ? ' --postgres' : ''}${options.attacks ? ` --attacks '${options.attacks.join(',')}'` : ''}`;
}

export const LIMITS = {
  answerTimeoutMs: 30_000,
  stallMs: 200,
  rssAboveIdleBytes: 512 * 1024 * 1024,
  errorBodyBytes: 16 * 1024,
  /** A connection whose request is still unfinished after this must have been closed by the gateway. */
  unfinishedRequestCutoffMs: 30_000,
  /** Time allowed after the load for replaying stall suspects alone. */
  confirmStallsMs: 90_000,
};

export interface Finding {
  kind: string;
  symptom: string;
  /** The case to replay with `--only`, when the finding comes from one. */
  caseIndex?: number;
  example: string;
}

export interface FindingGroup extends Finding {
  count: number;
}

export interface FuzzReport {
  seed: number;
  database: 'sqlite' | 'postgres';
  /** Appended to `--seed N --only I` in replay lines. */
  replayFlags: string;
  requested: number;
  sent: number;
  refusedByClient: number;
  rawCases: number;
  durationMs: number;
  completed: boolean;
  crashed: boolean;
  byAttack: Record<string, number>;
  byStatus: Record<string, number>;
  idleRss: number;
  peakRss: number;
  probe: { count: number; errors: number; p50: number; p99: number; max: number; over: number };
  /** Requests the wildcard channel's fake upstream received (each one's path checked). */
  upstreamRequests: number;
  /** One line per after-run check (usage row, restarts). */
  afterRun: string[];
  groups: FindingGroup[];
}

const HEAVY_BYTES = 2 * 1024 * 1024;

function describeCase(fuzzCase: FuzzCase): string {
  const headers = Object.keys(fuzzCase.headers).join(', ') || 'no headers';
  const path = fuzzCase.path.length > 100 ? `${fuzzCase.path.slice(0, 100)}…` : fuzzCase.path;
  const body = fuzzCase.body ? `, body ${fuzzCase.body.length} B` : '';
  return `${fuzzCase.method} ${path} [${headers}${body}] — ${fuzzCase.attack}: ${fuzzCase.detail}`;
}

async function readCapped(body: AsyncIterable<Buffer>, cap: number): Promise<{ text: string; bytes: number }> {
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.length;
    if (bytes <= cap) chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), bytes };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

class Mutex {
  private tail: Promise<void> = Promise.resolve();
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const log = options.log ?? (() => {});
  const images = await buildHostileImages();
  const context: CaseContext = { key: FUZZ_KEY, images, maxValueBytes: 1024 * 1024, hugeBytes: 8 * 1024 * 1024, attacks: options.attacks };
  const upstream = await startWildcardUpstream();
  let gateway: FuzzGateway;
  try {
    gateway = await startFuzzGateway({ databaseUrl: options.databaseUrl, extraYaml: upstream.yaml });
  } catch (error) {
    await upstream.close();
    throw error;
  }
  let running: FuzzGateway | undefined = gateway;
  const pool = new Pool(gateway.baseUrl, { connections: options.concurrency, headersTimeout: LIMITS.answerTimeoutMs, bodyTimeout: LIMITS.answerTimeoutMs });
  const groups = new Map<string, FindingGroup>();
  const replayFlags = replayFlagsOf(options);
  const report: FuzzReport = {
    seed: options.seed,
    database: options.databaseUrl?.startsWith('postgres') ? 'postgres' : 'sqlite',
    replayFlags,
    requested: options.only === undefined ? options.requests : 1,
    sent: 0,
    refusedByClient: 0,
    rawCases: 0,
    durationMs: 0,
    completed: false,
    crashed: false,
    byAttack: {},
    byStatus: {},
    idleRss: 0,
    peakRss: 0,
    probe: { count: 0, errors: 0, p50: 0, p99: 0, max: 0, over: 0 },
    upstreamRequests: 0,
    afterRun: [],
    groups: [],
  };
  const find = (group: string, finding: Finding) => {
    const existing = groups.get(group);
    if (existing) existing.count += 1;
    else {
      groups.set(group, { ...finding, count: 1 });
      log(
        `finding: ${finding.kind} — ${finding.symptom}\n  e.g. ${finding.example}${finding.caseIndex === undefined ? '' : `\n  replay: npm run fuzz -- --seed ${options.seed} --only ${finding.caseIndex}${replayFlags}`}`,
      );
    }
  };
  const alive = () => gateway.child.exitCode === null && gateway.child.signalCode === null;
  const inFlight = new Map<number, { fuzzCase: FuzzCase; startedAt: number }>();
  /** Periods when the event loop was seen blocked (a /healthz probe outstanding past the limit). */
  const stallWindows: Array<{ start: number; end: number }> = [];
  let currentStall: { start: number } | undefined;
  const overlapsStall = (start: number, end: number) =>
    (currentStall !== undefined && end >= currentStall.start) || stallWindows.some((w) => start <= w.end && end >= w.start);

  try {
    // Warm up (lazy modules, the tokenizer, sharp) with one valid request per route, then take idle RSS.
    for (const route of ROUTES) {
      const body = route.body?.();
      if (body) withValidImages(route, body, images[0]);
      if (route.multipart) continue;
      const response = await pool.request({
        method: route.method,
        path: route.path,
        headers: { authorization: `Bearer ${FUZZ_KEY}`, 'x-goog-api-key': FUZZ_KEY, 'content-type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      await response.body.dump();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const { memory } = await import('../bench/proc-stats.js');
    report.idleRss = memory(gateway.pid).rss;
    const watch = watchGateway(gateway.pid, gateway.port);
    const started = Date.now();
    const deadline = started + options.seconds * 1000;
    const groupOf = (c: FuzzCase) => `${c.route.name} | ${c.attack} | ${c.detail.split(/[:(]/)[0].trim()}`;
    const heavy = new Mutex();
    // Cases that may call the fake upstream run one at a time, so each request it receives is the case's own.
    const upstreamLock = new Mutex();
    let upstreamChecked = 0;
    const checkUpstreamRequests = (fuzzCase: FuzzCase | undefined) => {
      for (const request of upstream.requests.slice(upstreamChecked)) {
        const problem = upstreamRequestProblem(request);
        if (problem)
          find(`upstream path | ${fuzzCase ? groupOf(fuzzCase) : 'no case'}`, {
            kind: 'upstream path',
            symptom: `${problem}${fuzzCase ? ` (${groupOf(fuzzCase)})` : ''}`,
            caseIndex: fuzzCase?.index,
            example: fuzzCase ? describeCase(fuzzCase) : `a request no case accounts for: ${request.path.slice(0, 120)}`,
          });
      }
      upstreamChecked = upstream.requests.length;
    };
    /** Cases with control characters the gateway accepted (2xx): where a row the database refuses would come from. */
    const accepted: FuzzCase[] = [];

    // A pooled connection the gateway closed after answering the previous request can fail the
    // next one with a reset before it is seen: such a case is retried once on a fresh connection.
    const requestWithRetry = async (fuzzCase: FuzzCase) => {
      // A hard bound per case on the client side too: a request stuck in the client's own queue is cut and judged.
      const signal = AbortSignal.timeout(LIMITS.answerTimeoutMs + 5_000);
      const options = { method: fuzzCase.method as 'GET', path: fuzzCase.path, headers: fuzzCase.headers, body: fuzzCase.body, signal };
      // A request target that is not a path (`%2Fhealthz`, `*`) gets a 400 and `connection: close`
      // from Node's parser; sent over the shared pool, that close left undici's pool stuck, so such
      // cases go over a connection of their own.
      if (!fuzzCase.path.startsWith('/')) return requestOnOwnConnection(options);
      try {
        return await pool.request(options);
      } catch (error) {
        const code = (error as { code?: string }).code ?? '';
        if (code !== 'ECONNRESET' && code !== 'UND_ERR_SOCKET' && code !== 'EPIPE') throw error;
        return requestOnOwnConnection(options);
      }
    };
    async function requestOnOwnConnection(options: Parameters<Pool['request']>[0]) {
      const fresh = new Client(gateway.baseUrl, { headersTimeout: LIMITS.answerTimeoutMs, bodyTimeout: LIMITS.answerTimeoutMs, pipelining: 0 });
      const response = await fresh.request(options);
      response.body.once('close', () => void fresh.close().catch(() => {}));
      return response;
    }

    const checkCase = async (fuzzCase: FuzzCase) => {
      const groupBase = `${fuzzCase.route.name} | ${fuzzCase.attack} | ${fuzzCase.detail.split(/[:(]/)[0].trim()}`;
      const startedAt = Date.now();
      let status: number;
      let contentType: string | undefined;
      let text: string;
      let bytes: number;
      try {
        const response = await requestWithRetry(fuzzCase);
        status = response.statusCode;
        contentType = response.headers['content-type'] as string | undefined;
        ({ text, bytes } = await readCapped(response.body, status >= 400 ? 1024 * 1024 : 64 * 1024));
      } catch (error) {
        const code = (error as { code?: string }).code ?? '';
        if (code === 'UND_ERR_INVALID_ARG' || code === 'ERR_INVALID_ARG_TYPE' || code === 'ERR_INVALID_CHAR' || code === 'UND_ERR_NOT_SUPPORTED') {
          report.refusedByClient += 1;
          return;
        }
        report.sent += 1;
        if (!alive()) return;
        const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
        if (timedOut && overlapsStall(startedAt, Date.now())) {
          find('no answer during a stall', {
            kind: 'no answer',
            symptom: 'requests left unanswered while the event loop was blocked (a consequence: see the stall findings for the cause)',
            caseIndex: fuzzCase.index,
            example: describeCase(fuzzCase),
          });
          return;
        }
        const kind = timedOut ? 'no answer' : 'connection dropped';
        find(`${kind} | ${groupBase}`, {
          kind,
          symptom: `${timedOut ? `no complete answer within ${LIMITS.answerTimeoutMs / 1000} s` : `${code || (error as Error).message}`} on ${groupBase}`,
          caseIndex: fuzzCase.index,
          example: describeCase(fuzzCase),
        });
        return;
      }
      report.sent += 1;
      report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
      if (fuzzCase.controlCharacters && status < 300 && accepted.length < 8) accepted.push(fuzzCase);
      if (status >= 500) {
        find(`5xx | ${status} | ${groupBase}`, {
          kind: '5xx',
          symptom: `${status} on ${groupBase}: ${text.slice(0, 160)}`,
          caseIndex: fuzzCase.index,
          example: describeCase(fuzzCase),
        });
      }
      const errorReadCap = 1024 * 1024;
      if (status >= 400 && fuzzCase.method !== 'HEAD') {
        // A body cut at the read cap cannot be parsed; it is reported as oversized below.
        const problem = bytes > errorReadCap ? undefined : errorShapeProblem(fuzzCase.family, status, contentType, text);
        if (problem) {
          find(`shape | ${fuzzCase.family} | ${status} | ${problem} | ${fuzzCase.route.name}`, {
            kind: 'error shape',
            symptom: `${status} from ${fuzzCase.method} ${fuzzCase.path.split('?')[0].slice(0, 60)} is not in the ${fuzzCase.family} shape (${problem}): ${text.slice(0, 160)}`,
            caseIndex: fuzzCase.index,
            example: describeCase(fuzzCase),
          });
        }
        if (bytes > LIMITS.errorBodyBytes) {
          find(`oversized | ${groupBase}`, {
            kind: 'oversized error',
            symptom: `a ${status} error body of ${bytes} B (over ${LIMITS.errorBodyBytes} B: it echoes the input) on ${groupBase}`,
            caseIndex: fuzzCase.index,
            example: describeCase(fuzzCase),
          });
        }
      }
    };

    const runCase = async (index: number) => {
      const fuzzCase = generateCase(options.seed, index, context);
      report.byAttack[fuzzCase.attack] = (report.byAttack[fuzzCase.attack] ?? 0) + 1;
      inFlight.set(index, { fuzzCase, startedAt: Date.now() });
      try {
        if ((fuzzCase.body?.length ?? 0) > HEAVY_BYTES) await heavy.run(() => checkCase(fuzzCase));
        else if (fuzzCase.reachesUpstream)
          await upstreamLock.run(async () => {
            checkUpstreamRequests(undefined);
            await checkCase(fuzzCase);
            checkUpstreamRequests(fuzzCase);
          });
        else await checkCase(fuzzCase);
      } finally {
        inFlight.delete(index);
        finished += 1;
      }
    };

    let next = options.only ?? 0;
    const last = options.only === undefined ? options.requests : options.only + 1;
    // Every 10 s without a finished case, say which cases are still in flight (a harness or gateway hang shows here).
    let finished = 0;
    let lastFinished = -1;
    const hangWatch = setInterval(() => {
      if (finished === lastFinished && inFlight.size > 0) {
        const oldest = [...inFlight.entries()].slice(0, 4).map(([index, entry]) => `#${index} ${describeCase(entry.fuzzCase).slice(0, 120)}`);
        log(`fuzz: no case finished for 10 s; in flight: ${oldest.join(' | ')}`);
      }
      lastFinished = finished;
    }, 10_000);
    hangWatch.unref();
    const worker = async () => {
      while (next < last && Date.now() < deadline && alive()) {
        const index = next;
        next += 1;
        if (index > 0 && index % 1000 === 0) log(`fuzz: case ${index} of ${last}, ${inFlight.size} in flight, ${Math.round((Date.now() - started) / 1000)} s`);
        await runCase(index);
      }
    };

    // Stalls: a /healthz probe outstanding past the limit. Under load several requests are in
    // flight; each stall's suspects are replayed alone afterwards to name the one that blocks.
    const stallEvents: Array<{ start: number; suspects: FuzzCase[] }> = [];
    let confirming = false;
    let stallDuringReplay = false;
    const stallWatcher = setInterval(() => {
      const since = watch.outstandingSince;
      const now = Date.now();
      if (since !== undefined && now - since > LIMITS.stallMs && currentStall === undefined) {
        currentStall = { start: since };
        if (confirming) stallDuringReplay = true;
        else {
          const suspects = [...inFlight.values()].sort((a, b) => a.startedAt - b.startedAt).map((entry) => entry.fuzzCase);
          stallEvents.push({ start: since, suspects: suspects.slice(0, 8) });
        }
      }
      if (since === undefined && currentStall !== undefined) {
        stallWindows.push({ start: currentStall.start, end: now });
        currentStall = undefined;
      }
    }, 50);

    const rawTasks: Array<Promise<void>> = [];
    if (options.only === undefined) {
      const stalled = stalledRawCases(FUZZ_KEY, options.stallHoldMs);
      const judged = options.stallHoldMs > LIMITS.unfinishedRequestCutoffMs;
      for (const rawCase of stalled) {
        rawTasks.push(
          sendRaw(gateway.port, rawCase).then((outcome) => {
            report.rawCases += 1;
            if ((outcome.status ?? 0) >= 500)
              find(`raw 5xx | ${rawCase.name}`, { kind: '5xx', symptom: `${outcome.status} on ${rawCase.name}`, example: rawCase.name });
            const cutAfter = outcome.closedAfterMs;
            if (judged && (cutAfter === undefined || cutAfter > LIMITS.unfinishedRequestCutoffMs)) {
              find(`unfinished | ${rawCase.name}`, {
                kind: 'connection kept open',
                symptom: `${rawCase.name}: the gateway ${cutAfter === undefined ? `still held the connection after ${options.stallHoldMs / 1000} s` : `closed it only after ${Math.round(cutAfter / 1000)} s`} (cutoff ${LIMITS.unfinishedRequestCutoffMs / 1000} s)`,
                example: `raw socket: ${rawCase.name}`,
              });
            }
          }),
        );
      }
      const prompt = promptRawCases(FUZZ_KEY);
      rawTasks.push(
        (async () => {
          for (let round = 0; round < options.rawRounds && Date.now() < deadline && alive(); round += 1) {
            for (const rawCase of prompt) {
              if (!alive()) return;
              const outcome = await sendRaw(gateway.port, rawCase);
              report.rawCases += 1;
              checkRaw(rawCase, outcome.status, outcome.closedAfterMs, outcome.headers['content-type'], outcome.body);
            }
          }
        })(),
      );
    }
    function checkRaw(rawCase: RawCase, status: number | undefined, closedAfterMs: number | undefined, contentType: string | undefined, body: string) {
      if (!alive()) return;
      if (status !== undefined && status >= 500) {
        find(`raw 5xx | ${rawCase.name}`, {
          kind: '5xx',
          symptom: `${status} on raw ${rawCase.name}: ${body.slice(0, 160)}`,
          example: `raw socket: ${rawCase.name}`,
        });
      }
      if (closedAfterMs === undefined && overlapsStall(Date.now() - rawCase.waitMs - 1_000, Date.now())) return;
      if (closedAfterMs === undefined) {
        find(`raw hang | ${rawCase.name}`, {
          kind: 'no answer',
          symptom: `raw ${rawCase.name}: neither answered nor closed within ${rawCase.waitMs / 1000} s`,
          example: `raw socket: ${rawCase.name}`,
        });
      }
      // Answers Fastify gives (413, 400 from the app) must be in the family shape; Node's own bare 400s come before any route.
      if (status !== undefined && status >= 400 && body.length > 0 && contentType?.includes('json')) {
        const problem = errorShapeProblem('openai', status, contentType, body);
        if (problem)
          find(`raw shape | ${rawCase.name}`, {
            kind: 'error shape',
            symptom: `raw ${rawCase.name}: ${status} not in the openai shape (${problem}): ${body.slice(0, 160)}`,
            example: `raw socket: ${rawCase.name}`,
          });
      }
    }

    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    async function confirmStalls(): Promise<void> {
      if (stallEvents.length === 0) return;
      confirming = true;
      const confirmDeadline = Date.now() + LIMITS.confirmStallsMs;
      const culprits = new Map<string, { fuzzCase: FuzzCase; worstMs: number }>();
      const cleared = new Set<number>();
      for (const event of stallEvents) {
        let culprit = event.suspects.find((c) => culprits.has(groupOf(c)));
        for (const suspect of event.suspects) {
          if (culprit || Date.now() > confirmDeadline || !alive()) break;
          if (cleared.has(suspect.index)) continue;
          // Quiet first: a probe sent after this point answered within the limit.
          const quietFrom = Date.now();
          const quiet = () => watch.lastAnswer !== undefined && watch.lastAnswer.at > quietFrom + 50 && watch.lastAnswer.ms <= LIMITS.stallMs;
          while (!quiet() && alive() && Date.now() < confirmDeadline) await sleep(50);
          if (!quiet()) break;
          stallDuringReplay = false;
          const before = watch.probeMs.length;
          const sent = pool
            .request({ method: suspect.method as 'GET', path: suspect.path, headers: suspect.headers, body: suspect.body })
            .then((response) => response.body.dump())
            .catch(() => {});
          const until = Date.now() + 5_000;
          while (!stallDuringReplay && Date.now() < until) await Promise.race([sent, sleep(50)]);
          await Promise.race([sent, sleep(300)]);
          const worstMs = Math.max(0, ...watch.probeMs.slice(before));
          if (stallDuringReplay || worstMs > LIMITS.stallMs) {
            culprit = suspect;
            culprits.set(groupOf(suspect), { fuzzCase: suspect, worstMs });
          } else cleared.add(suspect.index);
        }
        if (culprit) {
          const known = culprits.get(groupOf(culprit));
          find(`stall | ${groupOf(culprit)}`, {
            kind: 'event-loop stall',
            symptom: `one request alone blocks the event loop (/healthz unanswered over ${LIMITS.stallMs} ms${known && known.worstMs > 0 ? `, up to ${Math.round(known.worstMs)} ms` : ''}): ${groupOf(culprit)}`,
            caseIndex: culprit.index,
            example: describeCase(culprit),
          });
        } else {
          find('stall | not reproduced alone', {
            kind: 'event-loop stall',
            symptom: `/healthz over ${LIMITS.stallMs} ms under load, not reproduced by replaying the requests then in flight on the same gateway (a cause cached after its first run, e.g. by the tokenizer, only shows on a fresh one: replay each suspect with --only)`,
            caseIndex: event.suspects[0]?.index,
            example: event.suspects.map((c) => `#${c.index} ${describeCase(c)}`).join('\n         ') || '(nothing in flight)',
          });
        }
      }
      while (currentStall !== undefined && alive() && Date.now() < confirmDeadline) await sleep(100);
      confirming = false;
    }

    await Promise.all(Array.from({ length: options.only === undefined ? options.concurrency : 1 }, worker));
    report.completed = next >= last;
    await Promise.all(rawTasks);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await confirmStalls();
    clearInterval(stallWatcher);
    await watch.stop();
    report.durationMs = Date.now() - started;

    if (!alive()) {
      report.crashed = true;
      const suspects = [...inFlight.values()].map((entry) => entry.fuzzCase);
      find('crash', {
        kind: 'crash',
        symptom: `the gateway exited (${gateway.child.exitCode ?? gateway.child.signalCode}); last output: ${gateway.output().slice(-600)}`,
        caseIndex: suspects[0]?.index,
        example: suspects.map((c) => `#${c.index} ${describeCase(c)}`).join('\n         ') || '(nothing in flight)',
      });
    }
    const sorted = [...watch.probeMs].sort((a, b) => a - b);
    report.probe = {
      count: sorted.length,
      errors: watch.probeErrors,
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      max: sorted[sorted.length - 1] ?? 0,
      over: sorted.filter((ms) => ms > LIMITS.stallMs).length,
    };
    report.peakRss = Math.max(report.idleRss, ...watch.rssSamples);
    if (report.peakRss - report.idleRss > LIMITS.rssAboveIdleBytes) {
      find('memory', {
        kind: 'memory',
        symptom: `RSS peaked at ${Math.round(report.peakRss / 2 ** 20)} MB, ${Math.round((report.peakRss - report.idleRss) / 2 ** 20)} MB above idle (limit ${LIMITS.rssAboveIdleBytes / 2 ** 20} MB)`,
        example: 'the whole run',
      });
    }
    checkUpstreamRequests(undefined);
    report.upstreamRequests = upstream.requests.length;

    if (alive()) {
      const after = await afterRunChecks(gateway);
      running = after.gateway;
      report.afterRun = after.lines;
      const suspects = accepted.map((c) => `#${c.index} ${describeCase(c)}`).join('\n         ');
      for (const problem of after.problems) {
        find(`after the run | ${problem.kind} | ${problem.symptom.split(':')[0]}`, {
          kind: problem.kind,
          symptom: problem.symptom,
          caseIndex: accepted[0]?.index,
          example: `the first cases with control characters the gateway accepted (a row one of them left may be the cause; replay each with --only):\n         ${suspects || '(none)'}`,
        });
      }
    }
  } finally {
    await pool.close().catch(() => {});
    await running?.stop();
    await upstream.close().catch(() => {});
    // Every restart ran on the first process's work dir.
    gateway.remove();
  }
  report.groups = [...groups.values()].sort((a, b) => b.count - a.count);
  return report;
}
