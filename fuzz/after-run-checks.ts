/**
 * What must still hold after the hostile load: a normal call's usage row reaches the database
 * within seconds (one row the database refuses must not block the usage writer for everyone),
 * and `gengate start` on the same data directory and database listens again after a SIGTERM
 * and after a kill -9 (the journal replay must not die on what the run left in it).
 */
import { readUsage } from '../test/faults/read-usage.js';
import { FUZZ_KEY, type FuzzGateway, startFuzzGateway } from './start-gateway.js';

export const USAGE_ROW_WITHIN_MS = 5_000;
const RESTART_SIGNALS = ['SIGTERM', 'SIGKILL'] as const;

export interface AfterRunProblem {
  kind: 'usage not recorded' | 'restart';
  symptom: string;
}

/** One valid chat call; its row must be in the database within USAGE_ROW_WITHIN_MS. Returns the milliseconds taken, or the problem. */
export async function checkUsageRecorded(gateway: FuzzGateway): Promise<number | string> {
  const response = await fetch(`${gateway.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${FUZZ_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'textmodel-b-4o-mini', messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 16 }),
    signal: AbortSignal.timeout(30_000),
  });
  await response.arrayBuffer();
  const requestId = response.headers.get('x-request-id');
  if (response.status !== 200 || !requestId) return `a valid chat call answered ${response.status} (request id ${requestId ?? 'none'})`;
  const started = Date.now();
  while (Date.now() - started < USAGE_ROW_WITHIN_MS) {
    const rows = await readUsage(gateway.databaseUrl);
    if (rows.some((row) => row.request_id === requestId)) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const tail = gateway.output().trim().split('\n').slice(-3).join(' | ').slice(0, 400);
  return `the usage row of a valid chat call (${requestId}) was not in the database ${USAGE_ROW_WITHIN_MS / 1000} s after its answer; the gateway's last output: ${tail || '(none)'}`;
}

/**
 * The checks, on `gateway` and then on a restart after each signal. Returns the gateway now
 * running (the caller stops it), the problems found, and one line per step for the report.
 */
export async function afterRunChecks(first: FuzzGateway): Promise<{ gateway: FuzzGateway | undefined; problems: AfterRunProblem[]; lines: string[] }> {
  const problems: AfterRunProblem[] = [];
  const lines: string[] = [];
  let gateway = first;
  const usage = async (when: string) => {
    const outcome = await checkUsageRecorded(gateway).catch((error: Error) => `a valid chat call failed: ${error.message}`);
    if (typeof outcome === 'string') problems.push({ kind: 'usage not recorded', symptom: `${when}: ${outcome}` });
    lines.push(`${when}: ${typeof outcome === 'string' ? 'usage row MISSING' : `usage row in ${(outcome / 1000).toFixed(1)} s`}`);
  };
  await usage('after the load');
  for (const signal of RESTART_SIGNALS) {
    if (signal === 'SIGTERM') await gateway.stop(60_000);
    else {
      gateway.child.kill('SIGKILL');
      await gateway.exited;
    }
    const started = Date.now();
    try {
      gateway = await startFuzzGateway({ workDir: gateway.workDir, databaseUrl: gateway.databaseUrl });
    } catch (error) {
      const message = (error as Error).message.replace(/\s+/g, ' ');
      problems.push({ kind: 'restart', symptom: `after ${signal}, gengate start on the same data did not listen: ${message.slice(-600)}` });
      lines.push(`restart after ${signal}: FAILED`);
      return { gateway: undefined, problems, lines };
    }
    lines.push(`restart after ${signal}: listening in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await usage(`after the restart that followed ${signal}`);
  }
  return { gateway, problems, lines };
}
