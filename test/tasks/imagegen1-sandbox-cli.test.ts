/**
 * imagegen1 on the sandbox (width, height and num_outputs honoured), then the task's billing
 * and the key's webhook secret read back through the `gengate` CLI on the same database.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

let gw: RunningGateway;
const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'gengate-tasks-cli-')), 'gengate.db')}`;

function gengate(args: string[]): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    env: { ...process.env, GENGATE_DATABASE_URL: databaseUrl, GENGATE_DATA_DIR: gw.gateway.config.dataDir, GENGATE_CONFIG: '', GENGATE_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout })));
}

beforeAll(async () => {
  gw = await startGateway({ databaseUrl, sandbox: { taskMs: 200 } });
});
afterAll(async () => {
  await gw?.close();
});

describe('imagegen1 on the sandbox, and the tasks CLI', () => {
  let taskId = '';

  it('makes num_outputs images of the asked size', async () => {
    const created = await fetch(`${gw.url}/imagegen1/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'black-forest-labs/flux-schnell', prompt: 'tiles', width: 640, height: 384, num_outputs: 3 }),
    });
    const body: Answer = await created.json();
    expect(body.status).toBe('pending');
    taskId = body.id;
    let record: Answer;
    for (let i = 0; i < 200; i++) {
      record = await (await fetch(`${gw.url}/imagegen1/task/${taskId}`, { headers: { authorization: `Bearer ${gw.key}` } })).json();
      if (record.status === 'succeeded' || record.status === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(record.status).toBe('succeeded');
    expect(record.output).toHaveLength(3);
    const meta = await sharp(Buffer.from(await (await fetch(record.output[2])).arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([640, 384]);
  });

  it('lists the task ledger by id and prints the key webhook secret', async () => {
    const ledger = await gengate(['tasks', 'ledger', taskId, '--json']);
    expect(ledger.code).toBe(0);
    const parsed = JSON.parse(ledger.stdout);
    expect(parsed).toMatchObject({ id: taskId, status: 'succeeded' });
    expect(parsed.ledger.map((entry: { kind: string }) => entry.kind)).toEqual(['reserve', 'settle']);
    const stored = await gw.gateway.tasks.repository.get(taskId);
    const secret = await gengate(['keys', 'webhook-secret', stored!.owner]);
    expect(secret.stdout.trim()).toBe(gw.gateway.tasks.webhookSecret(stored!.owner));
    expect((await gengate(['tasks', 'ledger', 'no-such-task'])).code).toBe(1);
  }, 90_000);
});
