/**
 * The admin API's stored responses: a member lists and deletes only their account's, an admin
 * every account's (or one account's); a deleted response is gone for the Responses API too.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { type AdminClient, signedInClient } from './admin-client.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

let running: RunningGateway;
let member: AdminClient & { accountId: string };
let other: AdminClient & { accountId: string };
let admin: AdminClient & { accountId: string };
let memberClient: OpenAI;
let otherClient: OpenAI;
const mine: string[] = [];
let theirs = '';

beforeAll(async () => {
  running = await startGateway({ masterKey: 'gg-master-responses-test-0123456789' });
  member = await signedInClient(running, 'responses-member@example.com', 'member');
  other = await signedInClient(running, 'responses-other@example.com', 'member');
  admin = await signedInClient(running, 'responses-admin@example.com', 'admin');
  const client = (key: string) => new OpenAI({ baseURL: `${running.url}/v1`, apiKey: key, maxRetries: 0 });
  memberClient = client(await running.createKey({ name: 'member key', accountId: member.accountId }));
  otherClient = client(await running.createKey({ name: 'other key', accountId: other.accountId }));
  for (const input of ['first', 'second', 'third']) {
    const previous = mine.at(-1);
    mine.push((await memberClient.responses.create({ model: 'textmodel-b-4o', input, ...(previous ? { previous_response_id: previous } : {}) })).id);
  }
  theirs = (await otherClient.responses.create({ model: 'textmodel-b-4o', input: 'not yours' })).id;
});
afterAll(() => running.close());

describe('admin API: stored responses', () => {
  it("shows a member their account's responses only, newest first, in pages", async () => {
    const firstPage = await member.call('GET', '/responses?limit=2');
    expect(firstPage.status).toBe(200);
    const body: Answer = firstPage.body;
    expect(body.data.map((row: Answer) => row.id)).toEqual([mine[2], mine[1]]);
    expect(body.data[0]).toMatchObject({ accountId: member.accountId, model: 'textmodel-b-4o', status: 'completed', previousResponseId: mine[1], items: 2 });
    const kept = body.data[0].expiresAt - body.data[0].createdAt;
    expect(kept).toBeGreaterThan(30 * 86_400_000 - 1000);
    expect(kept).toBeLessThanOrEqual(30 * 86_400_000);
    const secondPage = await member.call('GET', `/responses?limit=2&cursor=${body.nextCursor}`);
    expect(secondPage.body.data.map((row: Answer) => row.id)).toEqual([mine[0]]);
    expect(secondPage.body.nextCursor).toBeNull();
    const asking = await member.call('GET', `/responses?account=${other.accountId}`);
    expect(asking.body.data).toEqual([]);
  });

  it("shows an admin every account's, or one account's", async () => {
    const all = await admin.call('GET', '/responses');
    expect(all.body.data.map((row: Answer) => row.id)).toEqual(expect.arrayContaining([...mine, theirs]));
    const one = await admin.call('GET', `/responses?account=${other.accountId}`);
    expect(one.body.data.map((row: Answer) => row.id)).toEqual([theirs]);
  });

  it("lets a member delete their own, never another account's; the Responses API forgets it", async () => {
    expect((await member.call('DELETE', `/responses/${theirs}`)).status).toBe(404);
    expect((await otherClient.responses.retrieve(theirs)).id).toBe(theirs);
    const deleted = await member.call('DELETE', `/responses/${mine[0]}`);
    expect(deleted.status).toBe(204);
    await expect(memberClient.responses.retrieve(mine[0])).rejects.toMatchObject({ status: 404 });
    // The conversation that began with it can no longer be continued.
    await expect(memberClient.responses.create({ model: 'textmodel-b-4o', input: 'more', previous_response_id: mine[2] })).rejects.toMatchObject({
      status: 400,
      error: { param: 'previous_response_id' },
    });
    expect((await member.call('DELETE', `/responses/${mine[0]}`)).status).toBe(404);
    expect((await admin.call('DELETE', `/responses/${theirs}`)).status).toBe(204);
    const audit = await admin.call('GET', '/audit?limit=5');
    expect(audit.body.data.map((entry: Answer) => [entry.action, entry.target])).toEqual(
      expect.arrayContaining([
        ['response.delete', mine[0]],
        ['response.delete', theirs],
      ]),
    );
  });

  it('refuses what is not a listing query', async () => {
    expect((await member.call('GET', '/responses?limit=0')).status).toBe(400);
    expect((await member.call('GET', '/responses?cursor=nope')).status).toBe(400);
    expect((await member.call('GET', '/responses?colour=red')).status).toBe(400);
    expect((await running.gateway.http.inject({ method: 'GET', url: '/admin/v1/responses' })).statusCode).toBe(401);
  });
});
