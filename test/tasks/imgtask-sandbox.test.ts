/**
 * The imgtask family end to end on the sandbox, over real HTTP: imagine → fetch until SUCCESS
 * → upscale U1 → image-seed; blend of two real images; describe; the `/mj` prefix and the
 * `mj-api-secret` header; bad input answered in the family's shape; owner-only lookups.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';

let gw: RunningGateway;

interface Button {
  customId: string;
  label: string;
}

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

async function call(path: string, body?: unknown, key = gw.key, headers: Record<string, string> = {}): Promise<{ status: number; json: Answer }> {
  const response = await fetch(`${gw.url}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

async function untilDone(id: string, prefix = '/imgtask'): Promise<Answer> {
  for (let i = 0; i < 200; i++) {
    const { json } = await call(`${prefix}/task/${id}/fetch`);
    if (json.status === 'SUCCESS' || json.status === 'FAILURE') return json;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${id} did not finish`);
}

async function solid(r: number, g: number, b: number): Promise<string> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: { r, g, b } } })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

beforeAll(async () => {
  gw = await startGateway({ sandbox: { taskMs: 300 } });
});
afterAll(async () => {
  await gw?.close();
});

describe('imgtask on the sandbox', () => {
  it('imagines a 2×2 grid, upscales a quadrant and answers the seed', async () => {
    const submitted = await call('/imgtask/submit/imagine', { prompt: 'a lighthouse at dawn' });
    expect(submitted.status).toBe(200);
    expect(submitted.json).toMatchObject({ code: 1, description: expect.any(String), result: expect.stringMatching(/^\d{19}$/) });
    const record = await untilDone(submitted.json.result);
    expect(record).toMatchObject({ id: submitted.json.result, action: 'IMAGINE', status: 'SUCCESS', progress: '100%', prompt: 'a lighthouse at dawn' });
    expect(record.finishTime).toBeGreaterThanOrEqual(record.submitTime);
    expect(record.submitTime).toBeGreaterThan(1_600_000_000_000);
    expect(record.buttons.map((b: Button) => b.label)).toEqual(expect.arrayContaining(['U1', 'U2', 'U3', 'U4', 'V1', 'V2', 'V3', 'V4']));
    expect(record.imageUrl.startsWith(gw.url)).toBe(true);
    const grid = Buffer.from(await (await fetch(record.imageUrl)).arrayBuffer());
    const gridMeta = await sharp(grid).metadata();

    const u1 = record.buttons.find((b: Button) => b.label === 'U1');
    const action = await call('/imgtask/submit/action', { taskId: record.id, customId: u1.customId });
    expect(action.json.code).toBe(1);
    const upscaled = await untilDone(action.json.result);
    expect(upscaled).toMatchObject({ action: 'UPSCALE', status: 'SUCCESS' });
    expect(upscaled.buttons).toEqual([]);
    const image = await sharp(Buffer.from(await (await fetch(upscaled.imageUrl)).arrayBuffer())).metadata();
    expect(image.width).toBe(gridMeta.width);

    const seed = await call(`/imgtask/task/${record.id}/image-seed`);
    expect(seed.json).toMatchObject({ code: 1, result: expect.stringMatching(/^\d+$/) });
  });

  it('blends two images into the asked shape, and takes the MJ-proxy prefix and header', async () => {
    const red = await solid(255, 0, 0);
    const blue = await solid(0, 0, 255);
    const submitted = await call('/mj/submit/blend', { base64Array: [red, blue], dimensions: 'LANDSCAPE' }, 'unused', {
      authorization: '',
      'mj-api-secret': gw.key,
    });
    expect(submitted.json.code).toBe(1);
    const record = await untilDone(submitted.json.result, '/mj');
    expect(record).toMatchObject({ action: 'BLEND', status: 'SUCCESS' });
    const { data, info } = await sharp(Buffer.from(await (await fetch(record.imageUrl)).arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(info.width).toBeGreaterThan(info.height);
    let reddish = 0;
    let bluish = 0;
    for (let i = 0; i < data.length; i += info.channels) {
      if (data[i] > 150 && data[i + 2] < 100) reddish++;
      if (data[i + 2] > 150 && data[i] < 100) bluish++;
    }
    expect(reddish).toBeGreaterThan(0);
    expect(bluish).toBeGreaterThan(0);
  });

  it('describes an image with text about it', async () => {
    const submitted = await call('/imgtask/submit/describe', { base64: await solid(0, 200, 0) });
    const record = await untilDone(submitted.json.result);
    expect(record).toMatchObject({ action: 'DESCRIBE', status: 'SUCCESS' });
    expect(record.prompt).toMatch(/64/);
  });

  it('answers bad input in the family shape, never a 500', async () => {
    const one = await call('/imgtask/submit/blend', { base64Array: [await solid(1, 2, 3)] });
    expect(one.status).toBe(400);
    expect(one.json).toMatchObject({ code: 4, description: expect.stringContaining('2 to 5') });
    const six = await call('/imgtask/submit/blend', { base64Array: await Promise.all([1, 2, 3, 4, 5, 6].map((v) => solid(v, v, v))) });
    expect(six.json.code).toBe(4);
    const notImage = await call('/imgtask/submit/blend', { base64Array: ['data:image/png;base64,aGVsbG8=', await solid(1, 1, 1)] });
    expect(notImage.status).toBe(400);
    expect(notImage.json.code).toBe(4);
    const unknown = await call('/imgtask/task/1234567890123456789/fetch');
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe(3);
    const done = await call('/imgtask/submit/imagine', { prompt: 'x' });
    const parent = await untilDone(done.json.result);
    const badButton = await call('/imgtask/submit/action', { taskId: parent.id, customId: 'MJ::JOB::upsample::9::nope' });
    expect(badButton.status).toBe(400);
    expect(badButton.json.code).toBe(4);
  });

  it("another key's task answers exactly like an unknown one", async () => {
    const submitted = await call('/imgtask/submit/imagine', { prompt: 'mine' });
    const other = await gw.createKey({ name: 'other' });
    const foreign = await call(`/imgtask/task/${submitted.json.result}/fetch`, undefined, other);
    const unknown = await call('/imgtask/task/9999999999999999999/fetch', undefined, other);
    expect(foreign.status).toBe(404);
    expect(foreign.json.code).toBe(unknown.json.code);
    expect(foreign.json.description.replace(/\d{19}/, 'ID')).toBe(unknown.json.description.replace(/\d{19}/, 'ID'));
    const listed = await call('/imgtask/task/list-by-condition', { ids: [submitted.json.result] }, other);
    expect(listed.json).toEqual([]);
  });

  it("echoes a callback URL check ({challenge}) on a task's callback URL, and wakes the task", async () => {
    const submitted = await call('/imgtask/submit/imagine', { prompt: 'callback check' });
    const stored = await gw.gateway.tasks.repository.get(submitted.json.result);
    const answer = await fetch(`${gw.url}/tasks/callback/${stored!.callbackToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ challenge: 'check-1234' }),
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ challenge: 'check-1234' });
  });
});
