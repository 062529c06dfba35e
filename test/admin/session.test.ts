import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAdminLink } from '../../src/admin/setup-links.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { AdminClient, signedInClient } from './admin-client.js';

describe('admin API: sign-in, sessions, CSRF, setup links', () => {
  let running: RunningGateway;
  beforeAll(async () => {
    running = await startGateway({ masterKey: 'gg-master-test-key-0123456789' });
  });
  afterAll(() => running.close());

  it('sets the first admin password from the one-time link, signs in, and the link works only once', async () => {
    const link = await firstAdminLink(running.gateway.accounts, running.url);
    expect(link).toMatch(/\/dashboard\/setup#token=[A-Za-z0-9_-]{40,}$/);
    const token = (link as string).split('#token=')[1];
    const browser = new AdminClient(running.url);
    const who = await browser.call('POST', '/setup/lookup', { token });
    expect(who.status).toBe(200);
    expect(who.body.email).toBe('admin@gengate.local');

    const tooShort = await browser.call('POST', '/setup', { token, password: 'short' });
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.error.code).toBe('weak_password');

    const set = await browser.call('POST', '/setup', { token, password: 'a long enough password', email: 'ops@example.com' });
    expect(set.status).toBe(200);
    expect(set.body.account).toMatchObject({ email: 'ops@example.com', role: 'admin' });
    const cookie = set.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(cookie).not.toMatch(/Secure/i);
    expect(cookie).not.toContain(token);

    const again = await new AdminClient(running.url).call('POST', '/setup', { token, password: 'another long password' });
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('link_expired');
    expect(await firstAdminLink(running.gateway.accounts, running.url)).toBeUndefined();

    const other = new AdminClient(running.url);
    expect((await other.signIn('OPS@example.com', 'a long enough password')).status).toBe(200);
  });

  it('refuses a state change without the CSRF token, or from another origin, and accepts it with the token', async () => {
    const admin = await signedInClient(running, 'csrf-admin@example.com', 'admin');
    const token = admin.csrfToken;
    admin.csrfToken = undefined;
    const missing = await admin.call('POST', '/accounts', { email: 'x1@example.com', role: 'member' });
    expect(missing.status).toBe(403);
    expect(missing.body.error.code).toBe('csrf_failed');
    admin.csrfToken = 'wrong-token-of-the-right-length-000000';
    expect((await admin.call('POST', '/accounts', { email: 'x1@example.com', role: 'member' })).status).toBe(403);
    admin.csrfToken = token;
    const crossSite = await admin.call('POST', '/accounts', { email: 'x1@example.com', role: 'member' }, { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    const ok = await admin.call('POST', '/accounts', { email: 'x1@example.com', role: 'member' });
    expect(ok.status).toBe(201);
    expect(ok.body.setupUrl).toContain('/dashboard/setup#token=');
  });

  it('throttles failed sign-ins per email and address, with Retry-After, even for the right password afterwards', async () => {
    await signedInClient(running, 'victim@example.com', 'member', 'the right password!');
    const browser = new AdminClient(running.url);
    for (let i = 0; i < 5; i++) expect((await browser.signIn('victim@example.com', `guess ${i} wrong`)).status).toBe(401);
    const blocked = await browser.signIn('victim@example.com', 'the right password!');
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('too_many_attempts');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // An unknown email is refused the same way as a wrong password.
    const unknown = await new AdminClient(running.url).signIn('nobody@example.com', 'whatever password');
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.code).toBe('invalid_credentials');
  });

  it('signs out one browser, and everywhere', async () => {
    const first = await signedInClient(running, 'many@example.com', 'member', 'many sessions pass');
    const second = new AdminClient(running.url);
    await second.signIn('many@example.com', 'many sessions pass');
    expect((await first.call('GET', '/session')).status).toBe(200);
    expect((await first.call('DELETE', '/session')).status).toBe(204);
    expect(first.cookie).toBeUndefined();
    expect((await second.call('GET', '/session')).status).toBe(200);
    const third = new AdminClient(running.url);
    await third.signIn('many@example.com', 'many sessions pass');
    expect((await third.call('POST', '/session/sign-out-everywhere')).status).toBe(204);
    const ended = await second.call('GET', '/session');
    expect(ended.status).toBe(401);
    expect(ended.body.error.code).toBe('unauthenticated');
  });

  it('keeps members out of admin routes and lets the master key in without a session', async () => {
    const member = await signedInClient(running, 'member@example.com', 'member');
    const refused = await member.call('GET', '/accounts');
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await new AdminClient(running.url).call('GET', '/accounts')).status).toBe(401);
    const master = new AdminClient(running.url, 'gg-master-test-key-0123456789');
    const listed = await master.call('GET', '/accounts');
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((a: { email: string }) => a.email)).toContain('member@example.com');
    expect((await new AdminClient(running.url, running.key).call('GET', '/accounts')).status).toBe(403);
  });

  it('writes the audit log and serves the OpenAPI document generated from the route schemas', async () => {
    const master = new AdminClient(running.url, 'gg-master-test-key-0123456789');
    const audit = await master.call('GET', '/audit?limit=200');
    expect(audit.status).toBe(200);
    const actions = audit.body.data.map((e: { action: string }) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['account.set_password', 'session.sign_in', 'account.create', 'session.sign_out_everywhere']));
    const create = audit.body.data.find((e: { action: string }) => e.action === 'account.create');
    expect(create.actor.label).toBe('csrf-admin@example.com');
    expect(create.ip).toBe('127.0.0.1');
    // Paging walks the same entries, newest first, one at a time.
    const first = await master.call('GET', '/audit?limit=1');
    const second = await master.call('GET', `/audit?limit=1&cursor=${first.body.nextCursor}`);
    expect(second.status).toBe(200);
    expect([first.body.data[0].id, second.body.data[0].id]).toEqual([audit.body.data[0].id, audit.body.data[1].id]);
    const doc = await new AdminClient(running.url).call('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/admin/v1/session', '/admin/v1/accounts', '/admin/v1/audit']));
    expect(doc.body.paths['/admin/v1/accounts'].post.requestBody.content['application/json'].schema.required).toEqual(['email', 'role']);
  });

  it('answers bad input with a 400 in the admin error shape', async () => {
    const master = new AdminClient(running.url, 'gg-master-test-key-0123456789');
    const unknownField = await master.call('POST', '/accounts', { email: 'y@example.com', role: 'member', extra: 1 });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.error.code).toBe('invalid_request');
    expect((await master.call('GET', '/audit?limit=5000')).status).toBe(400);
    expect((await master.call('GET', '/audit?cursor=notacursor')).body.error.code).toBe('invalid_cursor');
    const notJson = await fetch(`${running.url}/admin/v1/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { error: { code: string } }).error.code).toBeTypeOf('string');
    const missing = await master.call('GET', '/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('unknown_route');
  });
});
