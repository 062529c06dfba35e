/** Signing in and out of the dashboard, and using a one-time link to set a password. */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import type { Account } from '../../store/accounts-repository.js';
import { sha256 } from '../admin-auth.js';
import type { AdminDeps } from '../admin-deps.js';
import { EMAIL_SCHEMA, NO_CONTENT, PASSWORD_SCHEMA, SIGNED_IN_SCHEMA } from '../admin-schemas.js';
import { checkNewPassword, hashPassword } from '../passwords.js';

const view = (account: Account) => ({ id: account.id, email: account.email, role: account.role });
const linkGone = () => new GatewayError('not_found', 'This link was used already or has expired; ask an admin for a new one.', { code: 'link_expired' });
const TOKEN_SCHEMA = { type: 'string', minLength: 20, maxLength: 100, pattern: '^[A-Za-z0-9_-]+$' } as const;

export function sessionRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.get(
    '/session',
    {
      config: { access: 'signed-in' },
      schema: { tags: ['session'], summary: 'The signed-in account and its CSRF token', response: { 200: SIGNED_IN_SCHEMA } },
    },
    async (request) => {
      const actor = request.actor;
      const csrfToken = deps.auth.csrfTokenOf(request);
      if (actor?.kind !== 'account' || csrfToken === undefined || actor.accountId === null) {
        throw new GatewayError('invalid_request', 'This route describes a browser session; an API key has none.', { code: 'no_session' });
      }
      return { account: { id: actor.accountId, email: actor.email ?? actor.label, role: actor.role }, csrfToken };
    },
  );

  app.post<{ Body: { email: string; password: string } }>(
    '/session',
    {
      config: { access: 'public' },
      schema: {
        tags: ['session'],
        summary: 'Sign in (sets the session cookie); failed attempts are limited per email and per address',
        body: {
          type: 'object',
          properties: { email: { type: 'string', maxLength: 254 }, password: PASSWORD_SCHEMA },
          required: ['email', 'password'],
          additionalProperties: false,
        },
        response: { 200: SIGNED_IN_SCHEMA },
      },
    },
    async (request, reply) => {
      const { account, csrfToken } = await deps.auth.signIn(request, reply, request.body.email, request.body.password);
      request.actor = { kind: 'account', accountId: account.id, role: account.role, label: account.email, email: account.email };
      await deps.audit.record(request, 'session.sign_in', account.id);
      return { account: view(account), csrfToken };
    },
  );

  app.delete(
    '/session',
    { config: { access: 'signed-in' }, schema: { tags: ['session'], summary: 'Sign out this browser', response: NO_CONTENT } },
    async (request, reply) => {
      await deps.auth.signOut(request, reply);
      return reply.code(204).send();
    },
  );

  app.post(
    '/session/sign-out-everywhere',
    { config: { access: 'signed-in' }, schema: { tags: ['session'], summary: "End every session of the caller's account", response: NO_CONTENT } },
    async (request, reply) => {
      const accountId = request.actor?.accountId;
      if (!accountId) throw new GatewayError('invalid_request', 'Only an account has sessions.', { code: 'no_session' });
      const ended = await deps.auth.signOutEverywhere(accountId, reply);
      await deps.audit.record(request, 'session.sign_out_everywhere', accountId, { sessions: ended });
      return reply.code(204).send();
    },
  );

  // A POST, not a GET with the token in the path: the path of every request is in the access log.
  app.post<{ Body: { token: string } }>(
    '/setup/lookup',
    {
      config: { access: 'public' },
      schema: {
        tags: ['session'],
        summary: 'Which account a one-time link sets the password of',
        body: { type: 'object', properties: { token: TOKEN_SCHEMA }, required: ['token'], additionalProperties: false },
        response: { 200: { type: 'object', properties: { email: { type: 'string' } }, required: ['email'] } },
      },
    },
    async (request) => {
      const account = await deps.accounts.accountOfLink(sha256(request.body.token), Date.now());
      if (!account || account.disabledAt !== null) throw linkGone();
      return { email: account.email };
    },
  );

  app.post<{ Body: { token: string; password: string; email?: string } }>(
    '/setup',
    {
      config: { access: 'public' },
      schema: {
        tags: ['session'],
        summary: "Use a one-time link: set the account's password (and optionally its email), then sign in",
        body: {
          type: 'object',
          properties: { token: TOKEN_SCHEMA, password: PASSWORD_SCHEMA, email: EMAIL_SCHEMA },
          required: ['token', 'password'],
          additionalProperties: false,
        },
        response: { 200: SIGNED_IN_SCHEMA },
      },
    },
    async (request, reply) => {
      const { token, password, email } = request.body;
      checkNewPassword(password);
      const idHash = sha256(token);
      const waiting = await deps.accounts.accountOfLink(idHash, Date.now());
      if (!waiting || waiting.disabledAt !== null) throw linkGone();
      if (email !== undefined && email.toLowerCase() !== waiting.email) {
        const taken = await deps.accounts.findByEmail(email);
        if (taken) throw new GatewayError('invalid_request', 'Another account uses this email.', { status: 409, code: 'conflict', param: 'email' });
      }
      const account = await deps.accounts.useLink(idHash, await hashPassword(password), Date.now());
      if (!account) throw linkGone();
      if (email !== undefined && email.toLowerCase() !== account.email) {
        await deps.accounts.update(account.id, { email });
        account.email = email.toLowerCase();
      }
      // A password set through a link ends the sessions it had (a reset must lock out whoever knew the old one).
      await deps.sessions.deleteForAccount(account.id);
      const signedIn = await deps.auth.openSession(request, reply, account);
      request.actor = { kind: 'account', accountId: account.id, role: account.role, label: account.email, email: account.email };
      await deps.audit.record(request, 'account.set_password', account.id, { via: 'link' });
      return { account: view(signedIn.account), csrfToken: signedIn.csrfToken };
    },
  );
}
