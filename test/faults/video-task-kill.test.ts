/**
 * A video task under `kill -9`: a real gateway process submits a videogen1 task to the fake
 * MiniMax, is killed while the task runs upstream, and is restarted on the same database. The
 * restarted engine takes the task over when the lease runs out, copies the video once it is
 * done, settles the price once, and the download route serves the vendor's exact bytes after
 * the vendor's link expired — with one upstream submit in all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { FAKE_MINIMAX_KEY, type FakeMinimaxUpstream, startFakeMinimaxUpstream } from '../fakes/fake-minimax-upstream.js';
import { type GatewayProcess, MASTER_KEY, startGatewayProcess } from './gateway-process.js';
import { readTasks } from './read-tasks.js';
import { until } from './task-kill-checks.js';

const dataDir = mkdtempSync(join(tmpdir(), 'gengate-videokill-'));
const databaseUrl = `sqlite:${join(dataDir, 'gengate.db')}`;
let fake: FakeMinimaxUpstream | undefined;
const processes: GatewayProcess[] = [];

afterAll(async () => {
  for (const gateway of processes) if (gateway.child.exitCode === null && gateway.child.signalCode === null) gateway.child.kill('SIGKILL');
  await Promise.all(processes.map((gateway) => gateway.exited));
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function yaml(fakeUrl: string): string {
  return [
    'channels:',
    '  - name: minimax-fake',
    '    provider: minimax',
    `    baseUrl: ${fakeUrl}`,
    `    apiKey: ${FAKE_MINIMAX_KEY}`,
    "    models: ['videogen1-*']",
    "    modelRewrite: [{ from: 'videogen1-', to: '' }]",
    '    options: { pollIntervalMs: 200 }',
    'tasks:',
    '  leaseMs: 1500',
    '  submitLeaseMs: 1500',
    'media:',
    '  allowPrivateUrls: true',
    '',
  ].join('\n');
}

it('survives kill -9 mid-task: taken over, settled once, the video served from the gateway', async () => {
  fake = await startFakeMinimaxUpstream({ taskMs: 4_000 });
  const first = await startGatewayProcess({ dataDir, databaseUrl, tokensPerSecond: 1000, extraYaml: yaml(fake.url) });
  processes.push(first);
  const created = await fetch(`${first.url}/videogen1/video`, {
    method: 'POST',
    headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'a lighthouse in fog' }),
  });
  const id = ((await created.json()) as { data: { task_id: string } }).data.task_id;
  // Killed while the task runs upstream, after at least one poll took its lease.
  await until('a poll that saw the task running', async () => (await readTasks(databaseUrl)).tasks[0]?.status === 'running' || undefined, 10_000, 50);
  first.child.kill('SIGKILL');
  expect((await first.exited).signal).toBe('SIGKILL');
  const atKill = (await readTasks(databaseUrl)).tasks[0];
  expect(atKill.status).toBe('running');

  const second = await startGatewayProcess({ dataDir, databaseUrl, tokensPerSecond: 1000, extraYaml: yaml(fake.url) });
  processes.push(second);
  const done = await until(
    'the task to end',
    async () => {
      const task = (await readTasks(databaseUrl)).tasks[0];
      return task && ['succeeded', 'failed', 'canceled'].includes(task.status) ? task : undefined;
    },
    30_000,
    150,
  );
  expect(done.status).toBe('succeeded');
  const state = await readTasks(databaseUrl);
  expect(state.ledger.filter((entry) => entry.task_id === id).map((entry) => entry.kind)).toEqual(['reserve', 'settle']);
  expect(state.usage.filter((row) => row.request_id === `task:${id}`)).toHaveLength(1);
  expect(fake.submits()).toHaveLength(1);
  fake.expireFiles();
  const video = await fetch(`${second.url}/v1/videos/${id}/download`, { headers: { authorization: `Bearer ${MASTER_KEY}` } });
  expect(video.status).toBe(200);
  expect(Buffer.from(await video.arrayBuffer()).equals(fake.videoOf(done.upstream_id as string))).toBe(true);
}, 360_000);
