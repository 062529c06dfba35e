/**
 * Finding 13: shutdown. SIGTERM stops accepting and lets in-flight requests finish until the
 * drain deadline; then streams end with their dialect's error event (not a cut connection) and
 * their usage is recorded. A second signal exits at once; the next start closes what it cut as
 * `interrupted`.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTempDatabase, type TempDatabase } from '../helpers/postgres.js';
import { rawConnection, rawPost, steadyLoad } from './drain-grace.js';
import { MASTER_KEY, startGatewayProcess, type GatewayProcess } from './gateway-process.js';
import { send, type Kind, type Seen } from './mixed-load.js';
import { byRequestId, readUsage } from './read-usage.js';

const dirs: string[] = [];
const databases: TempDatabase[] = [];
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  for (const database of databases) await database.drop();
});

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gengate-drain-'));
  dirs.push(dir);
  return dir;
}

const STREAMS: Kind[] = ['openai-stream', 'anthropic-stream', 'gemini-stream'];

/** Sends the requests and resolves once every stream has sent its first bytes. */
async function inFlight(gateway: GatewayProcess, kinds: Kind[]): Promise<Array<Promise<Seen>>> {
  const started: Array<Promise<void>> = [];
  const answers = kinds.map((kind) => {
    let firstBytes!: () => void;
    if (kind !== 'chat' && kind !== 'embed') started.push(new Promise<void>((resolve) => (firstBytes = resolve)));
    return send(kind, gateway.url, () => firstBytes?.());
  });
  await Promise.all(started);
  return answers;
}

/** Resolves once the gateway has handled its signal: `/readyz` no longer answers 200 (503 draining, or the listener closed). */
async function untilNotReady(gateway: GatewayProcess, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const status = await fetch(`${gateway.url}/readyz`).then(
      (response) => response.status,
      () => 0,
    );
    if (status !== 200) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`the gateway still said ready ${timeoutMs} ms after the signal`);
}

/** The dialect's in-stream error event, as its SDKs recognise it. */
function endsWithDialectError(seen: Seen): boolean {
  const frames = seen.body.trim().split(/\n\n/);
  const last = frames.at(-1) ?? '';
  if (seen.kind === 'anthropic-stream') return last.startsWith('event: error\n') && last.includes('"overloaded_error"');
  if (seen.kind === 'openai-stream') return frames.some((f) => f.startsWith('data: {"error":'));
  return last.startsWith('data: {"error":') && last.includes('"code":503');
}

describe('shutdown', () => {
  for (const store of ['SQLite', 'PostgreSQL'] as const) {
    it(`finding 13: ${store} — after the drain deadline, in-flight streams end with the dialect's error event and their usage is recorded`, async () => {
      const dir = dataDir();
      let databaseUrl = `sqlite:${join(dir, 'gengate.db')}`;
      if (store === 'PostgreSQL') {
        const database = await createTempDatabase();
        databases.push(database);
        databaseUrl = database.url;
      }
      // 40 tokens at 4 a second: ten seconds, far beyond the 1.5 s deadline.
      const gateway = await startGatewayProcess({ dataDir: dir, databaseUrl, tokensPerSecond: 4, drainTimeoutMs: 1_500 });
      const answers = await inFlight(gateway, STREAMS);
      const signalledAt = Date.now();
      gateway.child.kill('SIGTERM');
      // No new work once draining (a loaded host may take a while to handle the signal: wait until it has).
      await untilNotReady(gateway);
      const late = await send('embed', gateway.url);
      expect(late.completed).toBe(false);

      const seen = await Promise.all(answers);
      const exit = await gateway.exited;
      expect(exit.code).toBe(0);
      expect(Date.now() - signalledAt).toBeLessThan(6_000);
      for (const stream of seen) {
        expect(stream.status).toBe(200);
        expect(endsWithDialectError(stream), `${stream.kind}:\n${stream.body.slice(-300)}`).toBe(true);
      }

      const rows = byRequestId(await readUsage(databaseUrl));
      for (const request of seen) {
        const found = rows.get(request.requestId!) ?? [];
        expect(
          found.map((r) => r.outcome),
          request.kind,
        ).toEqual(['overloaded']);
        expect(found[0].input_tokens, request.kind).toBeGreaterThan(0);
      }
      expect(readdirSync(join(dir, 'usage-journal'))).toEqual([]);
    }, 240_000);
  }

  it('finding 13: requests that finish within the drain deadline complete normally, and the process exits as soon as they have', async () => {
    const dir = dataDir();
    const databaseUrl = `sqlite:${join(dir, 'gengate.db')}`;
    // About a second per answer; a deadline far beyond.
    const gateway = await startGatewayProcess({ dataDir: dir, databaseUrl, tokensPerSecond: 40, drainTimeoutMs: 20_000 });
    const answers = await inFlight(gateway, STREAMS);
    const signalledAt = Date.now();
    gateway.child.kill('SIGTERM');
    const seen = await Promise.all(answers);
    expect(await gateway.exited, gateway.output()).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(10_000);
    expect(seen.map((s) => s.completed)).toEqual([true, true, true]);
    const rows = byRequestId(await readUsage(databaseUrl));
    for (const request of seen) expect((rows.get(request.requestId!) ?? []).map((r) => r.outcome)).toEqual(['ok']);
  }, 240_000);

  it('Ctrl-C (SIGINT) at a terminal drains without the grace period a SIGTERM waits', async () => {
    const dir = dataDir();
    const gateway = await startGatewayProcess({ dataDir: dir, databaseUrl: `sqlite:${join(dir, 'gengate.db')}`, tokensPerSecond: 4, drainDelayMs: 20_000 });
    const signalledAt = Date.now();
    gateway.child.kill('SIGINT');
    expect(await gateway.exited, gateway.output()).toEqual({ code: 0, signal: null });
    // Well under the 20 s grace a SIGTERM would wait (room for a loaded host's slow exit).
    expect(Date.now() - signalledAt).toBeLessThan(15_000);
  }, 240_000);

  it('finding 13: a second signal exits at once, and the next start closes the cut requests as interrupted', async () => {
    const dir = dataDir();
    const databaseUrl = `sqlite:${join(dir, 'gengate.db')}`;
    const setup = { dataDir: dir, databaseUrl, tokensPerSecond: 4 };
    // The default deadline: 30 s.
    const gateway = await startGatewayProcess(setup);
    const answers = await inFlight(gateway, STREAMS);
    gateway.child.kill('SIGINT');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const secondAt = Date.now();
    gateway.child.kill('SIGINT');
    const exit = await gateway.exited;
    expect(Date.now() - secondAt).toBeLessThan(2_000);
    expect(exit.code).toBe(1);
    const seen = await Promise.all(answers);
    expect(seen.some((s) => s.completed)).toBe(false);
    expect(existsSync(join(dir, 'usage-journal'))).toBe(true);

    const restarted = await startGatewayProcess(setup);
    restarted.child.kill('SIGTERM');
    expect(await restarted.exited, restarted.output()).toEqual({ code: 0, signal: null });
    const rows = byRequestId(await readUsage(databaseUrl));
    for (const request of seen) {
      const found = rows.get(request.requestId!) ?? [];
      expect(
        found.map((r) => r.outcome),
        request.kind,
      ).toEqual(['interrupted']);
      expect(found[0]).toMatchObject({ key_id: 'master', operation: 'chat', stream: 1 });
    }
  }, 240_000);
});

describe('shutdown grace period (server.drainDelayMs)', () => {
  const auth = { authorization: `Bearer ${MASTER_KEY}` };
  const chat = (stream: boolean, maxTokens: number) => ({
    model: 'textmodel-b-4o-mini',
    max_tokens: maxTokens,
    stream,
    messages: [{ role: 'user', content: 'Tell me about lighthouses.' }],
  });

  it('on SIGTERM /readyz is 503 at once, requests keep being served until the grace ends, and later ones get the API error shape', async () => {
    const dir = dataDir();
    // Long enough for a loaded host to handle the signal and answer requests sent during it.
    const GRACE_MS = 5_000;
    const gateway = await startGatewayProcess({
      dataDir: dir,
      databaseUrl: `sqlite:${join(dir, 'gengate.db')}`,
      tokensPerSecond: 5,
      drainDelayMs: GRACE_MS,
      drainTimeoutMs: 30_000,
    });
    // A kept-alive connection with a stream on it (about 12 s) that outlives the grace period.
    const kept = rawConnection(gateway.url);
    kept.write(rawPost('/v1/chat/completions', auth, chat(true, 60)));
    const stop = new AbortController();
    const load = steadyLoad(gateway.url, ['embed'], 4, stop.signal);
    await new Promise((resolve) => setTimeout(resolve, 500));

    const signalledAt = Date.now();
    gateway.child.kill('SIGTERM');
    // Not ready once the signal is handled (polled: a loaded host may take a moment), well within the grace.
    let ready = await fetch(`${gateway.url}/readyz`);
    while (ready.status === 200 && Date.now() < signalledAt + GRACE_MS - 500) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      ready = await fetch(`${gateway.url}/readyz`);
    }
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'draining' });
    // Requests sent now, while draining and within the grace, are served.
    const duringGrace = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const sentAt = Date.now();
        return { ...(await send('embed', gateway.url)), sentAt };
      }),
    );

    // After the grace period, a request on the kept-alive connection still in use.
    await new Promise((resolve) => setTimeout(resolve, signalledAt + GRACE_MS + 1_000 - Date.now()));
    kept.write(rawPost('/v1/chat/completions', auth, chat(false, 5)));

    const exit = await gateway.exited;
    stop.abort();
    const seen = await load;
    expect(exit, gateway.output()).toEqual({ code: 0, signal: null });

    // Everything sent before the grace ended (less a margin for the answer to start) was served.
    const inGrace = [...seen, ...duringGrace].filter((s) => s.sentAt >= signalledAt && s.sentAt < signalledAt + GRACE_MS - 300);
    expect(inGrace.length).toBeGreaterThanOrEqual(4);
    for (const request of [...seen, ...duringGrace].filter((s) => s.sentAt < signalledAt + GRACE_MS - 300)) {
      expect({ kind: request.kind, status: request.status, completed: request.completed }).toEqual({ kind: request.kind, status: 200, completed: true });
    }
    // Later: refused connections, or the API's own 503 — never Fastify's bare one.
    for (const late of seen.filter((s) => s.status !== undefined && s.status !== 200)) {
      expect(late.status).toBe(503);
      expect(JSON.parse(late.body)).toMatchObject({ error: { code: 'shutting_down', type: 'server_error' } });
    }

    const [first, second] = (await kept.received).split(/(?=HTTP\/1\.1 )/);
    expect(first).toMatch(/^HTTP\/1\.1 200/);
    expect(first).toContain('data: [DONE]');
    expect(second).toMatch(/^HTTP\/1\.1 503/);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    const body = second.slice(second.indexOf('\r\n\r\n') + 4);
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'shutting_down', type: 'server_error' } });
  }, 180_000);
});
