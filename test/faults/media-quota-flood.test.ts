/**
 * Finding 4 of issue 23 against a real gateway process: one tenant floods image calls (several
 * at a time) until its media quota is full and it is refused; another tenant's calls, made all
 * along, keep succeeding and their media stay downloadable; the flooder keeps no more than its
 * quota (concurrent writes included), and the media folder stays within the store's cap.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type GatewayProcess, MASTER_KEY, startGatewayProcess } from './gateway-process.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

const MiB = 1024 * 1024;
const QUOTA = MiB;
const MAX_TOTAL = 3 * MiB;
const FLOOD_PARALLEL = 4;
const FLOOD_MAX_CALLS = 200;

let gateway: GatewayProcess | undefined;
const dir = mkdtempSync(join(tmpdir(), 'gengate-media-flood-'));

afterAll(async () => {
  if (gateway && gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
  await gateway?.exited;
  rmSync(dir, { recursive: true, force: true });
});

async function adminPost(path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${gateway!.url}/admin/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = await response.json();
  if (response.status !== 201) throw new Error(`POST ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function tenantKey(email: string): Promise<string> {
  const { account } = await adminPost('/accounts', { email, role: 'member' });
  return (await adminPost('/keys', { name: email, accountId: account.id })).secret;
}

async function generate(key: string, prompt: string): Promise<{ status: number; json: Answer }> {
  const response = await fetch(`${gateway!.url}/v1/images/generations`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'textmodel-b-image-1', prompt, size: '256x256' }),
  });
  return { status: response.status, json: await response.json() };
}

async function download(url: string): Promise<number> {
  const response = await fetch(url);
  const bytes = (await response.arrayBuffer()).byteLength;
  return response.status === 200 ? bytes : 0;
}

function bytesOnDisk(folder: string): number {
  return readdirSync(folder).reduce((sum, name) => sum + statSync(join(folder, name)).size, 0);
}

describe('media quota under a flood (real gateway process)', () => {
  it("finding 4: one tenant's image flood fills its own quota only; another tenant keeps being served and stored", async () => {
    gateway = await startGatewayProcess({
      dataDir: dir,
      databaseUrl: `sqlite:${join(dir, 'gengate.db')}`,
      tokensPerSecond: 1000,
      extraYaml: `media:\n  quotaBytesPerAccount: ${QUOTA}\n  dailyBytesPerAccount: ${2 * QUOTA}\n  maxTotalBytes: ${MAX_TOTAL}\n`,
    });
    const flooder = await tenantKey('flooder@example.com');
    const other = await tenantKey('other@example.com');

    const flooderUrls: string[] = [];
    const refusals: Answer[] = [];
    let calls = 0;
    let flooding = true;
    const flood = async (): Promise<void> => {
      while (flooding && calls < FLOOD_MAX_CALLS) {
        const answer = await generate(flooder, `flood ${calls++}`);
        if (answer.status === 200) flooderUrls.push(answer.json.data[0].url);
        else refusals.push(answer);
        if (refusals.length >= 10) flooding = false;
      }
    };
    const otherAnswers: Array<{ status: number; json: Answer }> = [];
    const meanwhile = async (): Promise<void> => {
      for (let i = 0; flooding || i < 3; i++) {
        otherAnswers.push(await generate(other, `other ${i}`));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const floods = Promise.all(Array.from({ length: FLOOD_PARALLEL }, flood)).finally(() => {
      flooding = false;
    });
    await Promise.all([floods, meanwhile()]);

    expect(refusals.length).toBeGreaterThan(0);
    for (const refusal of refusals) expect(refusal).toMatchObject({ status: 429, json: { error: { code: 'media_quota_exceeded' } } });
    const flooderKept = (await Promise.all(flooderUrls.map(download))).reduce((a, b) => a + b, 0);
    expect(flooderKept).toBeGreaterThan(0);
    expect(flooderKept).toBeLessThanOrEqual(QUOTA);

    expect(otherAnswers.length).toBeGreaterThanOrEqual(3);
    for (const answer of otherAnswers) {
      expect(answer.status).toBe(200);
      expect(await download(answer.json.data[0].url)).toBeGreaterThan(0);
    }
    expect(bytesOnDisk(join(dir, 'media'))).toBeLessThanOrEqual(MAX_TOTAL);
  }, 240_000);
});
