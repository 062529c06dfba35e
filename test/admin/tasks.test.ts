import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { type AdminClient, signedInClient } from './admin-client.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

let running: RunningGateway;
let member: AdminClient & { accountId: string };
let other: AdminClient & { accountId: string };
let admin: AdminClient & { accountId: string };
let memberKey = '';
let memberKeyId = '';

async function submit(path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${running.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${memberKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return response.json();
}

async function untilFinished(client: AdminClient, id: string): Promise<Answer> {
  for (let i = 0; i < 400; i++) {
    const answer = await client.call('GET', `/tasks/${id}`);
    expect(answer.status).toBe(200);
    if (['succeeded', 'failed', 'canceled'].includes(answer.body.task.status)) return answer.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${id} did not finish`);
}

beforeAll(async () => {
  running = await startGateway({ masterKey: 'gg-master-tasks-test-0123456789', sandbox: { taskMs: 300 } });
  member = await signedInClient(running, 'tasks-member@example.com', 'member');
  other = await signedInClient(running, 'tasks-other@example.com', 'member');
  admin = await signedInClient(running, 'tasks-admin@example.com', 'admin');
  memberKey = await running.createKey({ name: 'member key', accountId: member.accountId });
  memberKeyId = (await running.gateway.keys.list()).find((k) => k.name === 'member key')?.id as string;
});
afterAll(() => running.close());

describe('admin API: tasks', () => {
  let imageId = '';
  let videoId = '';

  it("stores the submitting key's account on the task", async () => {
    const created = await submit('/imagegen1/create', { model: 'black-forest-labs/flux-schnell', prompt: 'tiles', width: 256, height: 256 });
    imageId = created.id;
    const stored = await running.gateway.tasks.repository.get(imageId);
    expect(stored?.accountId).toBe(member.accountId);
    const video = await submit('/v1/video/generations', { model: 'videogen1-video-01', content: [{ type: 'text', text: 'a paper boat --duration 1' }] });
    videoId = video.id;
  });

  it('shows a finished image task with its timeline, ledger and an output that downloads', async () => {
    const detail = await untilFinished(member, imageId);
    expect(detail.task).toMatchObject({ id: imageId, family: 'imagegen1', status: 'succeeded', keyId: memberKeyId, accountId: member.accountId });
    const events = detail.timeline.map((entry: Answer) => entry.event);
    expect(events[0]).toBe('created');
    expect(events).toContain('submitted');
    expect(events.at(-1)).toBe('succeeded');
    expect(detail.timeline.map((entry: Answer) => entry.at)).toEqual([...detail.timeline.map((entry: Answer) => entry.at)].sort((a, b) => a - b));
    expect(detail.ledger.map((entry: Answer) => entry.kind)).toEqual(['reserve', 'settle']);
    expect(Array.isArray(detail.webhooks)).toBe(true);
    expect(detail.task.outputs).toHaveLength(1);
    expect(detail.task.outputs[0].kind).toBe('image');
    const image = await fetch(detail.task.outputs[0].url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await image.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('shows a finished video task whose output is an MP4 the browser can load', async () => {
    const detail = await untilFinished(member, videoId);
    expect(detail.task).toMatchObject({ family: 'video-generations', status: 'succeeded' });
    const video = detail.task.outputs.find((output: Answer) => output.kind === 'video');
    expect(video).toBeDefined();
    const response = await fetch(video.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(
      Buffer.from(await response.arrayBuffer())
        .subarray(4, 8)
        .toString(),
    ).toBe('ftyp');
  });

  it('lists a member their own tasks newest first, with filters and cursor paging; another member sees none', async () => {
    const all = await member.call('GET', '/tasks');
    expect(all.status).toBe(200);
    expect(all.body.data.map((task: Answer) => task.id)).toEqual([videoId, imageId]);
    const images = await member.call('GET', '/tasks?family=imagegen1');
    expect(images.body.data.map((task: Answer) => task.id)).toEqual([imageId]);
    expect((await member.call('GET', '/tasks?status=failed')).body.data).toEqual([]);
    expect((await member.call('GET', `/tasks?key=${memberKeyId}`)).body.data).toHaveLength(2);
    const first = await member.call('GET', '/tasks?limit=1');
    expect(first.body.data.map((task: Answer) => task.id)).toEqual([videoId]);
    const second = await member.call('GET', `/tasks?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((task: Answer) => task.id)).toEqual([imageId]);
    expect(second.body.nextCursor).toBeNull();

    expect((await other.call('GET', '/tasks')).body.data).toEqual([]);
    const hidden = await other.call('GET', `/tasks/${imageId}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe('not_found');
    expect((await other.call('POST', `/tasks/${imageId}/cancel`)).status).toBe(404);
    // An admin sees every account's tasks.
    expect((await admin.call('GET', '/tasks')).body.data.map((task: Answer) => task.id)).toEqual(expect.arrayContaining([imageId, videoId]));
  });

  it('refuses bad filters and cursors with a 400', async () => {
    expect((await member.call('GET', '/tasks?status=sleeping')).status).toBe(400);
    expect((await member.call('GET', '/tasks?limit=1000')).status).toBe(400);
    const cursor = await member.call('GET', '/tasks?cursor=not-a-cursor');
    expect(cursor.status).toBe(400);
    expect(cursor.body.error.code).toBe('invalid_cursor');
  });

  it('cancels an unfinished task (refunded, audited) and answers 409 for a finished one', async () => {
    const created = await submit('/imagegen1/create', { model: 'black-forest-labs/flux-schnell', prompt: 'slow' });
    const canceled = await member.call('POST', `/tasks/${created.id}/cancel`);
    expect(canceled.status).toBe(200);
    expect(canceled.body.task).toMatchObject({ id: created.id, status: 'canceled', errorCode: 'canceled' });
    const detail = (await member.call('GET', `/tasks/${created.id}`)).body;
    expect(detail.ledger.map((entry: Answer) => entry.kind)).toEqual(['reserve', 'refund']);
    expect(detail.timeline.at(-1).event).toBe('canceled');
    const again = await member.call('POST', `/tasks/${created.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    const audit = await admin.call('GET', '/audit?action=task.cancel');
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0]).toMatchObject({ target: created.id, actor: { kind: 'account', id: member.accountId } });
  });

  it('is for signed-in callers only', async () => {
    const anonymous = await fetch(`${running.url}/admin/v1/tasks`);
    expect(anonymous.status).toBe(401);
  });
});
