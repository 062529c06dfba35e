/**
 * Issue 27, "every core": `gengate start` with two workers on one port. Both answer; a limit
 * counts across them (not once per worker); a revoked key is refused by the other worker
 * within milliseconds; a worker killed with `kill -9` is replaced, its journal folded in by its
 * replacement, and no request sent meanwhile fails; SIGTERM drains both and exits 0; every
 * request has exactly one usage row.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MASTER_KEY, startGatewayProcess } from './gateway-process.js';
import { type Answer, chat, open, send } from './one-connection.js';
import { byRequestId, readUsage } from './read-usage.js';
import { workersByRequest } from './worker-log.js';

const dir = mkdtempSync(join(tmpdir(), 'gengate-cluster-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The pids of the workers that journaled usage (the journal's file names start with the pid). */
function journalPids(): number[] {
  const names = existsSync(join(dir, 'usage-journal')) ? readdirSync(join(dir, 'usage-journal')) : [];
  return [...new Set(names.map((name) => Number(name.split('.')[0])))];
}

describe('gengate start --workers 2', () => {
  it('shares the port, the limits and revocations; survives kill -9 of a worker; drains on SIGTERM; records usage once', async () => {
    const databaseUrl = `sqlite:${join(dir, 'gengate.db')}`;
    const gateway = await startGatewayProcess({
      dataDir: dir,
      databaseUrl,
      tokensPerSecond: 20,
      drainTimeoutMs: 10_000,
      env: { GENGATE_WORKERS: '2', GENGATE_LOG_LEVEL: 'info', GENGATE_ACCESS_LOG: 'true', GENGATE_LOG_FORMAT: 'json' },
    });
    const { url } = gateway;
    const workerOf = async (answer: Answer) => waitFor(`the log line of ${answer.requestId}`, () => workersByRequest(gateway.output()).get(answer.requestId));
    const completed: Answer[] = [];
    try {
      expect(gateway.output()).toContain('workers:  2 processes on one port');
      expect(gateway.output().match(/gengate listening on/g)).toHaveLength(1);

      // Both workers answer.
      const first: Answer[] = [];
      for (let i = 0; i < 6; i++) first.push(await send(url, '/v1/chat/completions', MASTER_KEY, chat()));
      expect(first.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
      completed.push(...first);
      const startWorkers = new Set(await Promise.all(first.map(workerOf)));
      expect(startWorkers.size).toBe(2);

      // A limit of 3 requests a minute admits 3 in all, not 3 per worker.
      const rule = await send(url, '/admin/v1/limits', MASTER_KEY, { scope: 'model', model: 'textmodel-b-4o-mini', kind: 'requests_per_minute', limit: 3 });
      expect(rule.status).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const limited: Answer[] = [];
      for (let i = 0; i < 8; i++) limited.push(await send(url, '/v1/chat/completions', MASTER_KEY, chat()));
      expect(limited.filter((a) => a.status === 200)).toHaveLength(3);
      expect(limited.filter((a) => a.status === 429)).toHaveLength(5);
      expect(new Set(await Promise.all(limited.map(workerOf))).size).toBe(2);
      completed.push(...limited.filter((a) => a.status === 200));
      const ruleId = (JSON.parse(rule.body) as { rule: { id: string } }).rule.id;
      expect((await send(url, `/admin/v1/limits/${ruleId}`, MASTER_KEY)).status).toBe(200);

      // A key revoked through one worker is refused by both at once.
      const created = await send(url, '/admin/v1/keys', MASTER_KEY, { name: 'to revoke' });
      const { key, secret } = JSON.parse(created.body) as { key: { id: string }; secret: string };
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (let i = 0; i < 2; i++) completed.push(await send(url, '/v1/chat/completions', secret, chat()));
      const revoked = await send(url, `/admin/v1/keys/${key.id}`, MASTER_KEY);
      expect(revoked.status).toBe(200);
      const revokedAt = Date.now();
      const after: Answer[] = [];
      for (let i = 0; i < 4; i++) after.push(await send(url, '/v1/chat/completions', secret, chat()));
      const felt = Date.now() - revokedAt;
      expect(after.map((a) => a.status)).toEqual([401, 401, 401, 401]);
      expect(new Set([await workerOf(revoked), ...(await Promise.all(after.map(workerOf)))]).size).toBe(2);
      console.log(`revocation felt by every worker within ${felt} ms of the revoking answer`);

      // kill -9 of a worker with streams in flight: it is replaced, and no request sent meanwhile fails.
      const streams = Array.from({ length: 4 }, () => open(url, '/v1/chat/completions', MASTER_KEY, chat(true, 60)));
      const streamIds = (await Promise.all(streams.map((s) => s.headers))).map((h) => h.requestId);
      const pids = journalPids();
      expect(pids).toHaveLength(2);
      const victim = pids[0];
      process.kill(victim, 'SIGKILL');
      await waitFor('the primary to see the worker die', () => (gateway.output().includes('worker exited; starting a replacement') ? true : undefined));
      const meanwhile: Answer[] = [];
      for (let i = 0; i < 6; i++) meanwhile.push(await send(url, '/v1/chat/completions', MASTER_KEY, chat()));
      expect(meanwhile.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
      completed.push(...meanwhile);
      const streamed = await Promise.allSettled(streams.map((s) => s.answer));
      const cut = streamIds.filter((_, i) => streamed[i].status === 'rejected');
      expect(cut.length).toBeGreaterThan(0);
      for (const result of streamed) if (result.status === 'fulfilled') completed.push(result.value);

      // The replacement answers, and has folded in its predecessor's journal file.
      const replacement = await waitFor(
        'a replacement worker to answer',
        async () => {
          const answer = await send(url, '/v1/chat/completions', MASTER_KEY, chat());
          completed.push(answer);
          const worker = await workerOf(answer);
          return startWorkers.has(worker) ? undefined : worker;
        },
        45_000,
      );
      expect(replacement).toBeGreaterThan(2);
      expect(journalPids()).not.toContain(victim);

      // SIGTERM: a stream in flight finishes, then everything exits 0.
      const last = open(url, '/v1/chat/completions', MASTER_KEY, chat(true, 20));
      await last.headers;
      gateway.child.kill('SIGTERM');
      const lastAnswer = await last.answer;
      expect(lastAnswer.body.trimEnd().endsWith('data: [DONE]')).toBe(true);
      completed.push(lastAnswer);
      expect(await gateway.exited, gateway.output().slice(-2_000)).toEqual({ code: 0, signal: null });

      const rows = byRequestId(await readUsage(databaseUrl));
      for (const answer of completed.filter((a) => a.status === 200)) {
        expect(
          rows.get(answer.requestId)?.map((r) => r.outcome),
          answer.requestId,
        ).toEqual(['ok']);
      }
      for (const id of cut) {
        // Closed as interrupted by the replacement's recovery (or `ok` when its row was journaled before the kill).
        const found = rows.get(id) ?? [];
        expect(found, id).toHaveLength(1);
        expect(['interrupted', 'ok']).toContain(found[0].outcome);
      }
      for (const [id, found] of rows) expect(found, id).toHaveLength(1);
    } finally {
      if (gateway.child.exitCode === null) gateway.child.kill('SIGKILL');
    }
  }, 300_000);
});
