/**
 * Finding 10 of issue 23: with no public URL configured, the links the gateway hands out and
 * stores were built from the submitter's Host header, so a member's task showed
 * `http://evil.example/…` links in an admin's dashboard. Requests go over real HTTP with a
 * forged Host header (undici lets a client set it).
 */
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';

const MASTER = 'gg-master-finding-10-0123456789';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

describe('finding 10: links never take an unchecked Host header', () => {
  let gw: RunningGateway;
  let configured: RunningGateway;
  beforeAll(async () => {
    gw = await startGateway({ masterKey: MASTER, sandbox: { taskMs: 100 }, server: { allowedHosts: ['gw.example.com'] } });
    configured = await startGateway({ media: { publicBaseUrl: 'https://images.example.org' } });
  });
  afterAll(async () => {
    await gw?.close();
    await configured?.close();
  });

  async function call(target: RunningGateway, method: 'GET' | 'POST', path: string, host: string, body?: unknown, key = target.key): Promise<Answer> {
    const answer = await request(`${target.url}${path}`, {
      method,
      headers: { host, authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await answer.body.json()) as Answer;
    if (answer.statusCode >= 300) throw new Error(`${method} ${path}: ${answer.statusCode} ${JSON.stringify(json)}`);
    return json;
  }

  const generate = (target: RunningGateway, host: string) =>
    call(target, 'POST', '/v1/images/generations', host, { model: 'imagegen1-schnell', prompt: 'a red kite', size: '256x256', response_format: 'url' });

  it('finding 10: an image answer to a forged Host links to the address the gateway listens on', async () => {
    const answer = await generate(gw, 'evil.example');
    const url: string = answer.data[0].url;
    expect(url).not.toContain('evil.example');
    expect(url.startsWith(`${gw.url}/media/`)).toBe(true);
    expect((await fetch(url)).status).toBe(200);
  });

  it('finding 10: a host name of server.allowedHosts is used; a configured public URL wins over any Host', async () => {
    const allowed = await generate(gw, 'gw.example.com:8443');
    expect(allowed.data[0].url.startsWith('http://gw.example.com:8443/media/')).toBe(true);
    const onPublic = await generate(configured, 'evil.example');
    expect(onPublic.data[0].url.startsWith('https://images.example.org/media/')).toBe(true);
  });

  it("finding 10: a task submitted with a forged Host stores links on the listen address, and an admin's task view and setup links never show the forged host", async () => {
    const submitted = await call(gw, 'POST', '/imgtask/submit/imagine', 'evil.example', { prompt: 'a lighthouse' });
    let record: Answer;
    for (let i = 0; i < 200; i++) {
      record = await call(gw, 'GET', `/imgtask/task/${submitted.result}/fetch`, 'evil.example');
      if (record.status === 'SUCCESS' || record.status === 'FAILURE') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(record.status).toBe('SUCCESS');
    expect(record.imageUrl).not.toContain('evil.example');
    expect(record.imageUrl.startsWith(`${gw.url}/media/`)).toBe(true);

    const host = new URL(gw.url).host;
    const list = await call(gw, 'GET', '/admin/v1/tasks?limit=50', host, undefined, MASTER);
    const task = list.data.find((t: Answer) => t.family === 'imgtask');
    const detail = await call(gw, 'GET', `/admin/v1/tasks/${task.id}`, host, undefined, MASTER);
    expect(detail.task.outputs.length).toBeGreaterThan(0);
    for (const output of detail.task.outputs) expect(output.url.startsWith(`${gw.url}/media/`)).toBe(true);

    const invited = await call(gw, 'POST', '/admin/v1/accounts', 'evil.example', { email: 'invitee@example.com', role: 'member' }, MASTER);
    expect(invited.setupUrl.startsWith(`${gw.url}/dashboard/setup#token=`)).toBe(true);
  });
});
