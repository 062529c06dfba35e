import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { type AdminClient, signedInClient } from '../admin/admin-client.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

let running: RunningGateway;
let admin: AdminClient & { accountId: string };

async function submit(prompt: string): Promise<string> {
  const response = await fetch(`${running.url}/imagegen1/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${running.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'black-forest-labs/flux-schnell', prompt, width: 256, height: 256 }),
  });
  expect(response.status).toBeLessThan(300);
  return ((await response.json()) as { id: string }).id;
}

async function untilFinished(id: string): Promise<Answer> {
  for (let i = 0; i < 400; i++) {
    const answer = await admin.call('GET', `/tasks/${id}`);
    if (['succeeded', 'failed', 'canceled'].includes(answer.body.task?.status)) return answer.body.task;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`task ${id} did not finish`);
}

async function usageRowOf(id: string): Promise<Answer> {
  await running.gateway.recorder.flush();
  const rows = await running.gateway.usage.recent(50);
  return rows.find((row) => row.request_id === `task:${id}`);
}

beforeAll(async () => {
  // Every simulated task fails part-way, as an upstream reporting a failure.
  running = await startGateway({ masterKey: 'gg-master-task-errors-0123456789', sandbox: { taskMs: 1000, taskFailureRate: 1 } });
  admin = await signedInClient(running, 'task-errors-admin@example.com', 'admin');
});
afterAll(() => running.close());

describe('the error type of a task', () => {
  it('a task the upstream reports failed is stored as the upstream’s failure, on the task and its usage row', async () => {
    const id = await submit('tiles');
    const task = await untilFinished(id);
    expect(task).toMatchObject({ status: 'failed', errorCode: 'upstream_failed', errorType: 'upstream.server_error' });
    expect((await admin.call('GET', '/tasks?status=failed')).body.data[0]).toMatchObject({ id, errorType: 'upstream.server_error' });
    const row = await usageRowOf(id);
    expect(row).toMatchObject({ outcome: 'failed', error_type: 'upstream.server_error' });
  });

  it('a task the client cancels is no failure: no error type', async () => {
    const id = await submit('slow');
    const canceled = await admin.call('POST', `/tasks/${id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.task).toMatchObject({ status: 'canceled', errorType: null });
    expect(await usageRowOf(id)).toMatchObject({ outcome: 'canceled', error_type: null });
  });
});
