/**
 * The API keys section over HTTP: a member creates a key, sees its secret once, uses it with the
 * openai SDK and revokes it; members never see or touch another account's keys; admins see all;
 * admin keys reach the admin API; bad input is a 400 in the admin error shape.
 */
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { AdminClient, signedInClient } from './admin-client.js';

const MASTER = 'gg-master-keys-test-0123456789';
const MODEL = 'textmodel-b-4o-mini';

async function chat(url: string, key: string): Promise<string | null> {
  const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: key, maxRetries: 0 });
  const answer = await client.chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello!' }] });
  return answer.choices[0].message.content;
}

describe('admin API: API keys', () => {
  let running: RunningGateway;
  let master: AdminClient;
  beforeAll(async () => {
    running = await startGateway({ masterKey: MASTER });
    master = new AdminClient(running.url, MASTER);
  });
  afterAll(() => running.close());

  it('lets a member create a key, shown once, use it with the openai SDK, and revoke it (then the SDK gets 401)', async () => {
    const member = await signedInClient(running, 'alice@example.com', 'member');
    const created = await member.call('POST', '/keys', { name: 'laptop', models: ['textmodel-b-*'] });
    expect(created.status).toBe(201);
    const { key, secret } = created.body;
    expect(secret).toMatch(/^gg-[A-Za-z0-9]{42}$/);
    expect(key).toMatchObject({
      name: 'laptop',
      models: ['textmodel-b-*'],
      accountId: member.accountId,
      accountEmail: 'alice@example.com',
      admin: false,
      status: 'active',
      revokedAt: null,
      expiresAt: null,
    });
    expect(secret.startsWith(key.hint.replace(/[….]+$/, ''))).toBe(true);

    const listed = await member.call('GET', '/keys');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((k: { id: string }) => k.id)).toEqual([key.id]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    expect(listed.body.nextCursor).toBeNull();

    expect(await chat(running.url, secret)).toBeTypeOf('string');

    const revoked = await member.call('DELETE', `/keys/${key.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.key).toMatchObject({ id: key.id, status: 'revoked' });
    expect(revoked.body.key.revokedAt).toBeTypeOf('number');
    const refused = await chat(running.url, secret).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((refused as InstanceType<typeof OpenAI.AuthenticationError>).status).toBe(401);

    const audit = await master.call('GET', '/audit?limit=200');
    const entries = audit.body.data.filter((e: { target: string }) => e.target === key.id);
    expect(entries.map((e: { action: string }) => e.action).sort()).toEqual(['key.create', 'key.revoke']);
    expect(JSON.stringify(audit.body)).not.toContain(secret);
    expect(entries.find((e: { action: string }) => e.action === 'key.create').actor.label).toBe('alice@example.com');
  });

  it("keeps a member away from another account's keys, and shows an admin every key", async () => {
    const bob = await signedInClient(running, 'bob@example.com', 'member');
    const carol = await signedInClient(running, 'carol@example.com', 'member');
    const bobKey = (await bob.call('POST', '/keys', { name: 'bob app' })).body.key;
    const carolKey = (await carol.call('POST', '/keys', { name: 'carol app' })).body.key;

    const carolSees = await carol.call('GET', `/keys?account=${bob.accountId}`);
    expect(carolSees.body.data.map((k: { id: string }) => k.id)).toEqual([carolKey.id]);
    const stolen = await carol.call('DELETE', `/keys/${bobKey.id}`);
    expect(stolen.status).toBe(404);
    expect(stolen.body.error.code).toBe('not_found');
    expect((await carol.call('DELETE', '/keys/no-such-key')).status).toBe(404);
    const forOther = await carol.call('POST', '/keys', { name: 'sneaky', accountId: bob.accountId });
    expect(forOther.status).toBe(403);
    expect((await carol.call('POST', '/keys', { name: 'power', admin: true })).status).toBe(403);

    const admin = await signedInClient(running, 'root@example.com', 'admin');
    const all = await admin.call('GET', '/keys?limit=200');
    const ids = all.body.data.map((k: { id: string }) => k.id);
    expect(ids).toEqual(expect.arrayContaining([bobKey.id, carolKey.id]));
    expect(all.body.data.find((k: { id: string }) => k.id === bobKey.id).accountEmail).toBe('bob@example.com');
    const onlyBob = await admin.call('GET', `/keys?account=${bob.accountId}`);
    expect(onlyBob.body.data.map((k: { id: string }) => k.id)).toEqual([bobKey.id]);
    const forBob = await admin.call('POST', '/keys', { name: 'made for bob', accountId: bob.accountId });
    expect(forBob.status).toBe(201);
    expect(forBob.body.key.accountEmail).toBe('bob@example.com');
    expect((await admin.call('DELETE', `/keys/${bobKey.id}`)).status).toBe(200);
  });

  it('pages newest first with an opaque cursor', async () => {
    const dave = await signedInClient(running, 'dave@example.com', 'member');
    const made: string[] = [];
    for (let i = 0; i < 5; i++) made.push((await dave.call('POST', '/keys', { name: `k${i}` })).body.key.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await dave.call('GET', `/keys?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.body.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.data.map((k: { id: string }) => k.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    // Keys made in the same millisecond tie on time and are ordered by id; otherwise the newest comes first.
    expect([...seen].sort()).toEqual([...made].sort());
    const created = (await dave.call('GET', '/keys')).body.data.map((k: { createdAt: number }) => k.createdAt);
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect((await dave.call('GET', '/keys?cursor=bogus')).body.error.code).toBe('invalid_cursor');
  });

  it('lets an admin key call the admin API with Bearer, and refuses a plain key with 403', async () => {
    const admin = await signedInClient(running, 'ops@example.com', 'admin');
    const made = await admin.call('POST', '/keys', { name: 'ci', admin: true });
    expect(made.status).toBe(201);
    expect(made.body.key.admin).toBe(true);
    const script = new AdminClient(running.url, made.body.secret);
    expect((await script.call('GET', '/accounts')).status).toBe(200);
    const plain = (await admin.call('POST', '/keys', { name: 'plain' })).body.secret;
    const refused = await new AdminClient(running.url, plain).call('GET', '/accounts');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');

    // A member account cannot hold an admin key, even one an admin makes for it.
    const member = await signedInClient(running, 'erin@example.com', 'member');
    const forMember = await admin.call('POST', '/keys', { name: 'x', admin: true, accountId: member.accountId });
    expect(forMember.status).toBe(400);
    // The master key makes operator keys (no account) unless it names one.
    const operator = await master.call('POST', '/keys', { name: 'operator', admin: true });
    expect(operator.status).toBe(201);
    expect(operator.body.key).toMatchObject({ accountId: null, accountEmail: null, admin: true });
  });

  it('keeps a key of a restricted account within its models', async () => {
    const frank = await signedInClient(running, 'frank@example.com', 'member');
    await running.gateway.accounts.update(frank.accountId, { models: ['textmodel-b-*'] });
    const inherits = await frank.call('POST', '/keys', { name: 'default' });
    expect(inherits.body.key.models).toEqual(['textmodel-b-*']);
    expect((await frank.call('POST', '/keys', { name: 'narrow', models: ['textmodel-b-4o*'] })).status).toBe(201);
    const wide = await frank.call('POST', '/keys', { name: 'wide', models: ['textmodel-*'] });
    expect(wide.status).toBe(403);
    expect(wide.body.error.code).toBe('models_not_allowed');
  });

  it('refuses bad input with a 400 in the admin error shape, an expired expiresAt included', async () => {
    const member = await signedInClient(running, 'grace@example.com', 'member');
    const cases: Array<[unknown, string]> = [
      [{}, 'invalid_request'],
      [{ name: '' }, 'invalid_request'],
      [{ name: 'two\nlines' }, 'invalid_value'],
      [{ name: 'x'.repeat(101) }, 'invalid_value'],
      [{ name: 'ok', models: [] }, 'invalid_value'],
      [{ name: 'ok', models: ['has space'] }, 'invalid_value'],
      [{ name: 'ok', models: Array.from({ length: 101 }, (_, i) => `m${i}`) }, 'invalid_request'],
      [{ name: 'ok', models: ['m'.repeat(201)] }, 'invalid_request'],
      [{ name: 'ok', expiresAt: Date.now() - 1_000 }, 'invalid_expiry'],
      [{ name: 'ok', expiresAt: 'tomorrow' }, 'invalid_request'],
      [{ name: 'ok', extra: true }, 'invalid_request'],
    ];
    for (const [body, code] of cases) {
      const answer = await member.call('POST', '/keys', body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.error.code, JSON.stringify(body).slice(0, 80)).toBe(code);
      expect(answer.body.error.message).toBeTypeOf('string');
    }
    const later = await member.call('POST', '/keys', { name: 'expiring', expiresAt: Date.now() + 3_600_000 });
    expect(later.status).toBe(201);
    expect(later.body.key.status).toBe('active');
    expect((await member.call('GET', '/keys?limit=0')).status).toBe(400);
  });

  it('stops the keys of a disabled account at once', async () => {
    const henry = await signedInClient(running, 'henry@example.com', 'member');
    const { secret } = (await henry.call('POST', '/keys', { name: 'h' })).body;
    expect(await chat(running.url, secret)).toBeTypeOf('string');
    const disabled = await master.call('PATCH', `/accounts/${henry.accountId}`, { disabled: true });
    expect(disabled.status).toBe(200);
    // The account route publishes the change; the reload it starts ends moments later.
    const deadline = Date.now() + 1_000;
    let refused: unknown;
    do refused = await chat(running.url, secret).catch((error: unknown) => error);
    while (!(refused instanceof OpenAI.AuthenticationError) && Date.now() < deadline);
    expect(refused).toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('describes the key routes in the OpenAPI document', async () => {
    const doc = await new AdminClient(running.url).call('GET', '/openapi.json');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/admin/v1/keys', '/admin/v1/keys/{id}']));
    const create = doc.body.paths['/admin/v1/keys'].post;
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['name']);
    expect(Object.keys(create.responses)).toContain('201');
    expect(doc.body.paths['/admin/v1/keys/{id}'].delete.tags).toEqual(['keys']);
  });
});
