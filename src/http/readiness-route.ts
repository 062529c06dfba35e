/**
 * `/readyz`: whether this replica should get traffic — every dependency it serves from answers
 * (the store with its migrations applied, the media folder writable, Redis when configured) and
 * it is not draining. `/healthz` stays a bare "alive". A load balancer polls this often, so one
 * evaluation serves every probe for a second, each check has a deadline, and a draining replica
 * answers 503 at once without running any.
 */
import type { FastifyInstance } from 'fastify';

/** One dependency: resolves with nothing when ready, or a short reason when not; may throw. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<string | undefined>;
}

interface ReadinessOptions {
  checks: readonly ReadinessCheck[];
  draining(): boolean;
  /** Deadline of each check (default 1 s). */
  timeoutMs?: number;
  /** How long one evaluation answers every probe (default 1 s). */
  cacheMs?: number;
}

interface Verdict {
  ready: boolean;
  checks: Record<string, string>;
}

export function registerReadinessRoute(http: FastifyInstance, options: ReadinessOptions): void {
  const timeoutMs = options.timeoutMs ?? 1000;
  const cacheMs = options.cacheMs ?? 1000;
  let last: { at: number; verdict: Promise<Verdict> } | undefined;
  const evaluate = async (): Promise<Verdict> => {
    const results = await Promise.all(options.checks.map((check) => runCheck(check, timeoutMs)));
    const checks: Record<string, string> = {};
    for (const [i, check] of options.checks.entries()) checks[check.name] = results[i] ?? 'ok';
    return { ready: results.every((result) => result === undefined), checks };
  };
  http.get('/readyz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (options.draining()) return reply.code(503).send({ status: 'draining', checks: {} });
    const now = Date.now();
    if (!last || now - last.at >= cacheMs) last = { at: now, verdict: evaluate() };
    const verdict = await last.verdict;
    return reply.code(verdict.ready ? 200 : 503).send({ status: verdict.ready ? 'ready' : 'not_ready', checks: verdict.checks });
  });
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    return await Promise.race([check.check().catch((error: unknown) => describe(error)), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0].slice(0, 200) || 'failed';
}
