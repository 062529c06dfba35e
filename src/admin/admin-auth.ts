/**
 * Who is calling the admin API, and signing in and out. A browser holds a random session token
 * in an HttpOnly, SameSite=Strict cookie (Secure over TLS); only its SHA-256 is stored. Every
 * state-changing request of a session must echo the session's CSRF token in `x-csrf-token`.
 * Scripts use an admin API key or the master key as a Bearer token instead (no cookie, no CSRF).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { KeyDirectory } from '../auth/key-directory.js';
import { GatewayError } from '../core/errors.js';
import type { Account, AccountsRepository } from '../store/accounts-repository.js';
import type { ApiKeysRepository } from '../store/api-keys-repository.js';
import type { LoginFailuresRepository } from '../store/login-failures-repository.js';
import type { SessionsRepository, StoredSession } from '../store/sessions-repository.js';
import type { Actor } from './actor.js';
import { DEVICE_COOKIE, DEVICE_TTL_MS, KnownDevices } from './known-device.js';
import { verifyPassword } from './passwords.js';
import { SignInThrottle, throttleAddress, tooManyAttempts } from './sign-in-throttle.js';

const SESSION_COOKIE = 'gengate_session';
const COOKIE_PATH = '/admin';
/** A session ends after this long without a request… */
const IDLE_MS = 24 * 3_600_000;
/** …and at the latest this long after sign-in. */
const ABSOLUTE_MS = 30 * 24 * 3_600_000;
/** `last_seen_at` is written at most this often, not on every request. */
const TOUCH_EVERY_MS = 60_000;

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

interface SignedIn {
  account: Account;
  csrfToken: string;
}

interface AdminAuthDeps {
  accounts: AccountsRepository;
  sessions: SessionsRepository;
  loginFailures: LoginFailuresRepository;
  keys: ApiKeysRepository;
  keyDirectory: KeyDirectory;
  /** The gateway's secret key, which signs known-device cookies. */
  secretKey: () => Uint8Array;
}

function unauthenticated(message = 'Sign in, or send an admin API key as a Bearer token.'): GatewayError {
  return new GatewayError('authentication', message, { code: 'unauthenticated' });
}

function accountActor(account: Account, sessionId: string): Actor {
  return { kind: 'account', accountId: account.id, role: account.role, label: account.email, email: account.email, sessionId };
}

export class AdminAuth {
  /** The session each request was resolved with (for its CSRF token). */
  private readonly sessionOf = new WeakMap<FastifyRequest, StoredSession>();
  private readonly throttle: SignInThrottle;
  private readonly devices: KnownDevices;

  constructor(private readonly deps: AdminAuthDeps) {
    this.throttle = new SignInThrottle(deps.loginFailures);
    this.devices = new KnownDevices(deps.secretKey);
  }

  /** The caller, or undefined when the request carries no credentials at all; bad credentials throw 401. */
  async resolve(request: FastifyRequest): Promise<Actor | undefined> {
    const authorization = request.headers.authorization;
    if (authorization !== undefined) return this.keyActor(authorization);
    const token = request.cookies?.[SESSION_COOKIE];
    if (token === undefined || token === '') return undefined;
    const now = Date.now();
    const session = await this.deps.sessions.find(sha256(token), now);
    if (!session) throw unauthenticated('Your session has ended; sign in again.');
    const account = await this.deps.accounts.findById(session.account_id);
    if (!account || account.disabledAt !== null) throw unauthenticated('Your session has ended; sign in again.');
    if (now - session.last_seen_at > TOUCH_EVERY_MS) {
      await this.deps.sessions.touch(session.id, now, Math.min(session.created_at + ABSOLUTE_MS, now + IDLE_MS));
    }
    this.sessionOf.set(request, session);
    return accountActor(account, session.id);
  }

  private async keyActor(authorization: string): Promise<Actor> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw unauthenticated('The Authorization header must be "Bearer <admin API key>".');
    const key = await this.deps.keyDirectory.authenticate(match[1]);
    if (key.isMaster) return { kind: 'master', accountId: null, role: 'admin', label: 'master key' };
    const stored = await this.deps.keys.findById(key.id);
    if (!stored?.admin) throw new GatewayError('permission', 'This API key may not call the admin API; create an admin key.', { code: 'forbidden' });
    if (stored.accountId === null) return { kind: 'key', accountId: null, role: 'admin', label: `key ${key.id}`, keyId: key.id };
    const account = await this.deps.accounts.findById(stored.accountId);
    if (!account || account.disabledAt !== null) throw unauthenticated('The account of this key is disabled.');
    return { kind: 'key', accountId: account.id, role: account.role, label: `key ${key.id} (${account.email})`, email: account.email, keyId: key.id };
  }

  /** State-changing requests of a browser session must carry its CSRF token (and, when sent, a same-origin Origin). */
  checkCsrf(request: FastifyRequest): void {
    const session = this.sessionOf.get(request);
    if (!session) return;
    const presented = request.headers['x-csrf-token'];
    if (typeof presented !== 'string' || !sameText(presented, session.csrf_token)) {
      throw new GatewayError('permission', 'Missing or wrong x-csrf-token header: reload the page.', { code: 'csrf_failed' });
    }
    this.checkOrigin(request);
  }

  /**
   * A browser's cross-site request says so in Origin; ours match the host it reached. The Host
   * header is the browser's own here (a page cannot set it), so comparing with it is sound.
   */
  checkOrigin(request: FastifyRequest): void {
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `${request.protocol}://${request.host}`) {
      throw new GatewayError('permission', 'Cross-origin request refused.', { code: 'csrf_failed' });
    }
  }

  csrfTokenOf(request: FastifyRequest): string | undefined {
    return this.sessionOf.get(request)?.csrf_token;
  }

  /**
   * Checks email and password (throttled per email, address, pair and known device:
   * sign-in-throttle.ts), then opens a session and sets its cookie.
   */
  async signIn(request: FastifyRequest, reply: FastifyReply, emailInput: string, password: string): Promise<SignedIn> {
    const email = emailInput.trim().toLowerCase();
    const account = await this.deps.accounts.findByEmail(email);
    const deviceId = account ? this.devices.verify(request.cookies?.[DEVICE_COOKIE], account.id) : undefined;
    const attempt = { email, ip: throttleAddress(request.ip), device: deviceId === undefined ? undefined : `device:${deviceId}` };
    await this.throttle.checkSignIn(attempt);
    const ok = await verifyPassword(password, account?.passwordHash ?? null);
    if (!account || !ok || account.disabledAt !== null) {
      await this.throttle.fail(attempt);
      throw new GatewayError('authentication', 'Wrong email or password.', { code: 'invalid_credentials' });
    }
    await this.throttle.succeed(attempt);
    return this.openSession(request, reply, account);
  }

  /**
   * Whether `password` is the signed-in account's current one. Each session has a few guesses in
   * the window; after them it is ended, so a stolen session cannot try passwords without end.
   */
  async checkCurrentPassword(request: FastifyRequest, reply: FastifyReply, account: Account, sessionId: string, password: string): Promise<boolean> {
    const attempt = { email: account.email, ip: throttleAddress(request.ip), device: `session:${sessionId}` };
    if (await this.throttle.sessionExhausted(attempt.device)) {
      await this.deps.sessions.delete(sessionId);
      reply.clearCookie(SESSION_COOKIE, { path: COOKIE_PATH });
      throw tooManyAttempts('Too many wrong current passwords: this session has ended; sign in again.');
    }
    if (await verifyPassword(password, account.passwordHash)) return true;
    await this.throttle.fail(attempt);
    return false;
  }

  async openSession(request: FastifyRequest, reply: FastifyReply, account: Account): Promise<SignedIn> {
    const token = randomBytes(32).toString('base64url');
    const csrfToken = randomBytes(24).toString('base64url');
    const now = Date.now();
    await this.deps.sessions.insert({
      id: sha256(token),
      account_id: account.id,
      csrf_token: csrfToken,
      created_at: now,
      expires_at: now + IDLE_MS,
      last_seen_at: now,
      ip: request.ip,
      user_agent: String(request.headers['user-agent'] ?? '').slice(0, 300),
    });
    const cookie = { path: COOKIE_PATH, httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https' } as const;
    reply.setCookie(SESSION_COOKIE, token, { ...cookie, maxAge: ABSOLUTE_MS / 1000 });
    // This browser is now a known device of the account (the same device id when it was one already).
    const deviceId = this.devices.verify(request.cookies?.[DEVICE_COOKIE], account.id);
    reply.setCookie(DEVICE_COOKIE, this.devices.issue(account.id, deviceId), { ...cookie, maxAge: DEVICE_TTL_MS / 1000 });
    return { account, csrfToken };
  }

  async signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const session = this.sessionOf.get(request);
    if (session) await this.deps.sessions.delete(session.id);
    reply.clearCookie(SESSION_COOKIE, { path: COOKIE_PATH });
  }

  /** Forgets ended sessions and failures older than the throttling window. */
  async sweep(now = Date.now()): Promise<void> {
    await this.deps.sessions.deleteExpired(now);
    await this.throttle.sweep(now);
  }

  /** Ends every session of the account (this one included). */
  async signOutEverywhere(accountId: string, reply: FastifyReply): Promise<number> {
    reply.clearCookie(SESSION_COOKIE, { path: COOKIE_PATH });
    return this.deps.sessions.deleteForAccount(accountId);
  }
}
