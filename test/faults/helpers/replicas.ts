/**
 * Several real gateway processes acting as replicas of one deployment, for the limits and budgets
 * fault tests (issue 26): `gengate start` N times, each on its own port, all on one fresh
 * PostgreSQL database and one Redis (`GENGATE_REDIS_URL`), sharing the master key and the secret
 * key (one data folder), and routed to one shared fake OpenAI upstream. Two priced models reach
 * it: `lim-fast` answers at once, `lim-slow` streams one word every `slowChunkDelayMs` (the
 * fake's `slow-stream` scenario, asked for by the channel's header), so a test can hold calls in
 * flight. Both cost `OUTPUT_PRICE_USD_PER_MTOK` per output token and nothing per input token, so
 * a call's cost is its output tokens times a known integer. `stop()` kills every process with
 * SIGKILL and drops the database, whatever state the test left them in.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAKE_OPENAI_API_KEY, type FakeOpenAIUpstream, startFakeOpenAIUpstream } from '../../fakes/fake-openai-upstream.js';
import { createTempDatabase, type TempDatabase } from '../../helpers/postgres.js';
import { type GatewayProcess, startGatewayProcess } from '../gateway-process.js';

export const FAST_MODEL = 'lim-fast';
export const SLOW_MODEL = 'lim-slow';
/** USD per million output tokens of both models: 100 → 0.0001 USD = 100,000 nUSD a token. */
export const OUTPUT_PRICE_USD_PER_MTOK = 100;
export const NUSD_PER_OUTPUT_TOKEN = 100_000;

export interface ReplicaOptions {
  count: number;
  /** `GENGATE_REDIS_URL` of every replica. */
  redisUrl: string;
  /** Pause of the slow model before each streamed chunk (one word). Default 20 ms. */
  slowChunkDelayMs?: number;
  /** `admission.leaseMs`: how long a dead replica's holds outlive it. Unset: the default. */
  leaseMs?: number;
}

export interface Replicas {
  gateways: GatewayProcess[];
  upstream: FakeOpenAIUpstream;
  databaseUrl: string;
  /** Kills replica `index` with SIGKILL and waits until it is gone. */
  kill(index: number): Promise<void>;
  /** Every process's output, labelled, for a failed test's report. */
  diagnostics(): string;
  stop(): Promise<void>;
}

function configYaml(upstreamUrl: string, options: ReplicaOptions): string {
  const price = `{ input: 0, output: ${OUTPUT_PRICE_USD_PER_MTOK} }`;
  const admission = options.leaseMs === undefined ? '' : `admission:\n  leaseMs: ${options.leaseMs}\n`;
  return `models:
  - { id: ${FAST_MODEL}, operations: [chat], price: ${price} }
  - { id: ${SLOW_MODEL}, operations: [chat], price: ${price} }
channels:
  - name: fast-up
    provider: openai
    baseUrl: ${upstreamUrl}
    apiKey: ${FAKE_OPENAI_API_KEY}
    models: [${FAST_MODEL}]
    modelMap: { ${FAST_MODEL}: gpt-4o-mini }
  - name: slow-up
    provider: openai
    baseUrl: ${upstreamUrl}
    apiKey: ${FAKE_OPENAI_API_KEY}
    headers: { x-fake-scenario: slow-stream }
    models: [${SLOW_MODEL}]
    modelMap: { ${SLOW_MODEL}: gpt-4o-mini }
${admission}`;
}

export async function startReplicas(options: ReplicaOptions): Promise<Replicas> {
  const gateways: GatewayProcess[] = [];
  let database: TempDatabase | undefined;
  let upstream: FakeOpenAIUpstream | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'gengate-replicas-'));

  const stop = async () => {
    const started = gateways.filter((gateway) => gateway !== undefined);
    for (const gateway of started) if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
    await Promise.all(started.map((gateway) => gateway.exited));
    await upstream?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    database = await createTempDatabase();
    upstream = await startFakeOpenAIUpstream({ slowChunkDelayMs: options.slowChunkDelayMs ?? 20 });
    const start = (index: number) =>
      startGatewayProcess({
        dataDir,
        databaseUrl: database!.url,
        tokensPerSecond: 1000,
        configName: `gengate-${index}.yaml`,
        extraYaml: configYaml(upstream!.url, options),
        env: { GENGATE_REDIS_URL: options.redisUrl },
      }).then((gateway) => {
        gateways[index] = gateway;
        return gateway;
      });
    // The first one migrates the fresh database alone; the others then start side by side.
    await start(0);
    await Promise.all(Array.from({ length: options.count - 1 }, (_, i) => start(i + 1)));
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    gateways,
    upstream,
    databaseUrl: database.url,
    async kill(index) {
      const gateway = gateways[index];
      if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
      await gateway.exited;
    },
    diagnostics: () => gateways.map((gateway, i) => `--- replica ${i} (${gateway.url})\n${gateway.output().slice(-4000)}`).join('\n'),
    stop,
  };
}
