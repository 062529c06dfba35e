/**
 * Finding 7 of issue 23: five wrong passwords for someone's email locked its owner out for 15
 * minutes from anywhere, and a stolen session could guess the current password without end.
 * Requests come from chosen client addresses through Fastify's inject.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/admin/passwords.js';
import { newAccount } from '../../src/admin/setup-links.js';
import { createTempDatabase, type TempDatabase } from '../helpers/postgres.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';

const STRANGER = '203.0.113.5';
const OWNER_HOME = '198.51.100.20';

describe.each(['sqlite', 'postgres'])('finding 7: sign-in lockout by strangers (%s)', (store) => {
  let running: RunningGateway;
  let database: TempDatabase | undefined;
  beforeAll(async () => {
    database = store === 'postgres' ? await createTempDatabase() : undefined;
    // Fastify's inject has no real socket, which the body idle timer needs.
    running = await startGateway({ databaseUrl: database?.url, server: { bodyIdleTimeoutMs: 0 } });
  });
  afterAll(async () => {
    await running?.close();
    await database?.drop();
  });

  async function account(email: string, password: string): Promise<void> {
    await running.gateway.accounts.insert({ ...newAccount(email, 'member'), passwordHash: await hashPassword(password) });
  }

  async function signIn(email: string, password: string, from: string, device?: string) {
    const answer = await running.gateway.http.inject({
      method: 'POST',
      url: '/admin/v1/session',
      payload: { email, password },
      remoteAddress: from,
      cookies: device === undefined ? {} : { gengate_device: device },
    });
    const cookie = (name: string) => answer.cookies.find((c) => c.name === name)?.value;
    return { status: answer.statusCode, body: answer.json(), session: cookie('gengate_session'), device: cookie('gengate_device') };
  }

  it("finding 7: a stranger's five wrong passwords stop the stranger's address, not the owner from elsewhere or from a known device", async () => {
    await account('owner@example.com', 'the owner password');
    const home = await signIn('owner@example.com', 'the owner password', OWNER_HOME);
    expect(home.status).toBe(200);

    for (let i = 0; i < 5; i++) expect((await signIn('owner@example.com', `wrong guess ${i}`, STRANGER)).status).toBe(401);
    const stopped = await signIn('owner@example.com', 'the owner password', STRANGER);
    expect(stopped.status).toBe(429);
    expect(stopped.body.error.code).toBe('too_many_attempts');

    // A new browser of the owner's at another address, and the owner's known browser even at the stranger's address.
    expect((await signIn('owner@example.com', 'the owner password', '198.51.100.77')).status).toBe(200);
    expect(home.device).toBeTruthy();
    expect((await signIn('owner@example.com', 'the owner password', STRANGER, home.device)).status).toBe(200);
  });

  it('finding 7: the per-address limit stops one address guessing across many emails', async () => {
    const from = '203.0.113.66';
    // Nineteen earlier failures of this address, for other emails, then a twentieth over HTTP.
    const at = Date.now();
    await running.gateway.store.db
      .insertInto('login_failures')
      .values(Array.from({ length: 19 }, (_, i) => ({ email: `nobody-${i}@example.com`, ip: from, at })))
      .execute();
    expect((await signIn('nobody-19@example.com', 'some wrong password', from)).status).toBe(401);
    expect((await signIn('nobody-20@example.com', 'some wrong password', from)).status).toBe(429);
    expect((await signIn('nobody-21@example.com', 'some wrong password', '203.0.113.67')).status).toBe(401);
  });

  it("finding 7: a known device passes when guesses from many addresses exhaust the email's limit; a new browser, another account's device cookie or a forged one do not", async () => {
    await account('target@example.com', 'the target password');
    await account('mallory@example.com', 'mallory password');
    const known = (await signIn('target@example.com', 'the target password', OWNER_HOME)).device as string;
    const mallorys = (await signIn('mallory@example.com', 'mallory password', STRANGER)).device as string;
    // What a botnet leaves behind: 60 failures for the email, from 60 addresses.
    const at = Date.now();
    await running.gateway.store.db
      .insertInto('login_failures')
      .values(Array.from({ length: 60 }, (_, i) => ({ email: 'target@example.com', ip: `192.0.2.${i + 1}`, at })))
      .execute();

    expect((await signIn('target@example.com', 'the target password', '198.51.100.90')).status).toBe(429);
    expect((await signIn('target@example.com', 'the target password', '198.51.100.90', mallorys)).status).toBe(429);
    const [payload, mac] = [known.slice(0, known.lastIndexOf('.')), known.slice(known.lastIndexOf('.') + 1)];
    const forged = `${payload}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`;
    expect((await signIn('target@example.com', 'the target password', '198.51.100.90', forged)).status).toBe(429);
    expect((await signIn('target@example.com', 'the target password', '198.51.100.90', known)).status).toBe(200);

    // A known device's own wrong passwords count against it: after five, it is a stranger again.
    for (let i = 0; i < 5; i++) expect((await signIn('target@example.com', `wrong ${i}`, `198.51.100.${100 + i}`, known)).status).toBe(401);
    expect((await signIn('target@example.com', 'the target password', '198.51.100.110', known)).status).toBe(429);
  });

  it('finding 7: changing the password allows five wrong current passwords per session, then refuses and ends the session', async () => {
    await account('changer@example.com', 'the first password');
    const signedIn = await signIn('changer@example.com', 'the first password', OWNER_HOME);
    const change = (currentPassword: string) =>
      running.gateway.http.inject({
        method: 'POST',
        url: '/admin/v1/accounts/me/password',
        payload: { currentPassword, newPassword: 'a brand new password' },
        headers: { 'x-csrf-token': signedIn.body.csrfToken },
        cookies: { gengate_session: signedIn.session as string },
        remoteAddress: OWNER_HOME,
      });
    for (let i = 0; i < 5; i++) {
      const wrong = await change(`not it ${i} at all`);
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error.code).toBe('invalid_credentials');
    }
    const refused = await change('the first password');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('too_many_attempts');
    const after = await running.gateway.http.inject({ method: 'GET', url: '/admin/v1/session', cookies: { gengate_session: signedIn.session as string } });
    expect(after.statusCode).toBe(401);
    // The password was not changed.
    expect((await signIn('changer@example.com', 'the first password', '198.51.100.5')).status).toBe(200);
  });
});
