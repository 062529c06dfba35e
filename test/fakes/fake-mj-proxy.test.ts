import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_MJ_SECRET, startFakeMjProxy, type FakeMjProxy } from './fake-mj-proxy.js';

const PNG = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64')}`;

describe('fake MJ proxy (self-test)', () => {
  let fake: FakeMjProxy;
  const clock = 1_000_000;

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown, secret = FAKE_MJ_SECRET) => {
    const response = await fetch(`${fake.url}${path}`, {
      method,
      headers: { 'mj-api-secret': secret, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      json: text && response.headers.get('content-type') === 'application/json' ? (JSON.parse(text) as Record<string, unknown>) : undefined,
      headers: response.headers,
    };
  };
  const imagine = async (prompt = 'a red fox') => {
    const { json } = await call('POST', '/mj/submit/imagine', { prompt });
    expect(json).toMatchObject({ code: 1, description: 'Submit success' });
    return json!.result as string;
  };

  beforeAll(async () => {
    fake = await startFakeMjProxy({ taskMs: 1000, resultTtlMs: 60_000, now: () => clock });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('refuses a missing or wrong secret with an empty 401', async () => {
    expect(await call('POST', '/mj/submit/imagine', { prompt: 'x' }, 'wrong')).toEqual(expect.objectContaining({ status: 401, json: undefined }));
    expect(fake.tasks.size).toBe(0);
  });

  it('moves a task NOT_START → SUBMITTED → IN_PROGRESS → SUCCESS on its clock, times in ms', async () => {
    const id = await imagine();
    const submitted = clock;
    const at = async (ms: number) => {
      fake.advance(ms);
      return (await call('GET', `/mj/task/${id}/fetch`)).json!;
    };
    expect(await at(0)).toMatchObject({ id, action: 'IMAGINE', status: 'NOT_START', progress: '0%', submitTime: submitted, prompt: 'a red fox', buttons: [] });
    expect(await at(150)).toMatchObject({ status: 'SUBMITTED', progress: '0%' });
    const early = await at(250);
    const later = await at(400);
    expect(early).toMatchObject({ status: 'IN_PROGRESS', startTime: submitted + 200 });
    expect(Number.parseInt(later.progress as string, 10)).toBeGreaterThan(Number.parseInt(early.progress as string, 10));
    const done = await at(400);
    expect(done).toMatchObject({ status: 'SUCCESS', progress: '100%', finishTime: submitted + 1000, imageUrl: `${fake.url}/attachments/${id}.png` });
    const hash = (done.properties as { messageHash: string }).messageHash;
    expect((done.buttons as Array<{ customId: string; label: string; emoji: string }>).map((b) => [b.customId, b.label, b.emoji])).toEqual([
      [`MJ::JOB::upsample::1::${hash}`, 'U1', ''],
      [`MJ::JOB::upsample::2::${hash}`, 'U2', ''],
      [`MJ::JOB::upsample::3::${hash}`, 'U3', ''],
      [`MJ::JOB::upsample::4::${hash}`, 'U4', ''],
      [`MJ::JOB::reroll::0::${hash}::SOLO`, '', '🔄'],
      [`MJ::JOB::variation::1::${hash}`, 'V1', ''],
      [`MJ::JOB::variation::2::${hash}`, 'V2', ''],
      [`MJ::JOB::variation::3::${hash}`, 'V3', ''],
      [`MJ::JOB::variation::4::${hash}`, 'V4', ''],
    ]);
  });

  it('serves the result as a real PNG until resultTtlMs after the finish, then 404', async () => {
    const id = await imagine();
    fake.advance(1000);
    const url = (await call('GET', `/mj/task/${id}/fetch`)).json!.imageUrl as string;
    const image = await fetch(url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(await sharp(Buffer.from(await image.arrayBuffer())).metadata()).toMatchObject({ format: 'png', width: 128, height: 128 });
    fake.advance(59_000);
    expect((await fetch(url)).status).toBe(200);
    fake.advance(1_000);
    expect((await fetch(url)).status).toBe(404);
  });

  it('expireResults() takes every result down at once', async () => {
    const id = await imagine();
    fake.advance(1000);
    const url = `${fake.url}/attachments/${id}.png`;
    expect((await fetch(url)).status).toBe(200);
    fake.expireResults();
    expect((await fetch(url)).status).toBe(404);
  });

  it('image-seed: the seed on success, 400 code 4 before, 404 code 3 for an unknown task', async () => {
    const id = await imagine();
    expect(await call('GET', `/mj/task/${id}/image-seed`)).toMatchObject({ status: 400, json: { code: 4 } });
    fake.advance(1000);
    expect(await call('GET', `/mj/task/${id}/image-seed`)).toMatchObject({ status: 200, json: { code: 1, result: fake.tasks.get(id)!.seed } });
    expect(await call('GET', '/mj/task/999/image-seed')).toMatchObject({ status: 404, json: { code: 3 } });
  });

  it('unknown task: fetch answers an empty 200; list-by-condition leaves it out', async () => {
    const id = await imagine();
    expect(await call('GET', '/mj/task/424242/fetch')).toMatchObject({ status: 200, json: undefined });
    const listed = await call('POST', '/mj/task/list-by-condition', { ids: ['424242', id] });
    expect((listed.json as unknown as Array<{ id: string }>).map((record) => record.id)).toEqual([id]);
  });

  it('a failing task ends FAILURE with its reason and an empty progress', async () => {
    fake.failNextTask('Banned prompt detected');
    const id = await imagine();
    fake.advance(1000);
    expect((await call('GET', `/mj/task/${id}/fetch`)).json).toMatchObject({ status: 'FAILURE', progress: '', failReason: 'Banned prompt detected' });
    expect((await call('GET', `/mj/task/${id}/fetch`)).json!.imageUrl).toBeUndefined();
  });

  it('answers refusals with HTTP 200 and their code', async () => {
    expect((await call('POST', '/mj/submit/imagine', { prompt: '' })).json).toMatchObject({ code: 4 });
    expect((await call('POST', '/mj/submit/imagine', { prompt: 'a bannedword here' })).json).toMatchObject({
      code: 24,
      properties: { bannedWord: 'bannedword' },
    });
    expect((await call('POST', '/mj/submit/blend', { base64Array: [PNG] })).json).toMatchObject({ code: 4 });
    expect((await call('POST', '/mj/submit/action', { taskId: '1', customId: 'MJ::JOB::upsample::1::x' })).json).toMatchObject({ code: 3 });
    fake.nextSubmitCode(23);
    expect(await call('POST', '/mj/submit/imagine', { prompt: 'ok' })).toMatchObject({ status: 200, json: { code: 23 } });
    fake.nextSubmitCode(22);
    expect((await call('POST', '/mj/submit/imagine', { prompt: 'ok' })).json).toMatchObject({
      code: 22,
      result: expect.any(String),
      properties: { numberOfQueues: 1 },
    });
  });

  it('an upscale asked twice answers code 21 with the first one', async () => {
    const parent = await imagine();
    fake.advance(1000);
    const customId = `MJ::JOB::upsample::2::${fake.tasks.get(parent)!.hash}`;
    const first = (await call('POST', '/mj/submit/action', { taskId: parent, customId })).json!;
    const second = (await call('POST', '/mj/submit/action', { taskId: parent, customId })).json!;
    expect(first).toMatchObject({ code: 1 });
    expect(second).toMatchObject({ code: 21, result: first.result });
    fake.advance(1000);
    expect((await call('GET', `/mj/task/${first.result as string}/fetch`)).json).toMatchObject({ action: 'UPSCALE', status: 'SUCCESS' });
  });

  it('rate limits polls with Retry-After when asked, and records the traffic', async () => {
    fake.rateLimitPolls(1, '3');
    const limited = await call('GET', '/mj/task/1/fetch');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect((await call('GET', '/mj/task/1/fetch')).status).toBe(200);
    const last = fake.requests.at(-1)!;
    expect(last).toMatchObject({ method: 'GET', path: '/mj/task/1/fetch', status: 200 });
    expect(last.headers['mj-api-secret']).toBe(FAKE_MJ_SECRET);
  });

  it('records long images as a short summary', async () => {
    const big = `data:image/png;base64,${'A'.repeat(400)}`;
    await call('POST', '/mj/submit/blend', { base64Array: [big, big], dimensions: 'SQUARE' });
    expect(fake.submits().at(-1)!.body).toEqual({
      base64Array: ['data:image/png;base64,<400 chars>', 'data:image/png;base64,<400 chars>'],
      dimensions: 'SQUARE',
    });
  });
});
