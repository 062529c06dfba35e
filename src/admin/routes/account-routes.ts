/** Accounts (admin): list, invite (a one-time link to hand over), change role, disable; and one's own password. */
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../../core/errors.js';
import { publicBaseUrl } from '../../http/public-base-url.js';
import type { Account } from '../../store/accounts-repository.js';
import type { AccountRole } from '../../store/schema.js';
import type { AdminDeps } from '../admin-deps.js';
import { EMAIL_SCHEMA, NO_CONTENT, PASSWORD_SCHEMA, pageSchema } from '../admin-schemas.js';
import { checkNewPassword, hashPassword } from '../passwords.js';
import { issueSetupLink, newAccount } from '../setup-links.js';

const ACCOUNT_DETAIL_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string', enum: ['admin', 'member'] },
    createdAt: { type: 'number' },
    disabledAt: { type: ['number', 'null'] },
    hasPassword: { type: 'boolean' },
  },
  required: ['id', 'email', 'role', 'createdAt', 'disabledAt', 'hasPassword'],
} as const;
const ID_PARAMS = { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] } as const;

const view = (account: Account) => ({
  id: account.id,
  email: account.email,
  role: account.role,
  createdAt: account.createdAt,
  disabledAt: account.disabledAt,
  hasPassword: account.passwordHash !== null,
});

export function accountRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.get(
    '/accounts',
    { config: { access: 'admin' }, schema: { tags: ['accounts'], summary: 'Every account', response: { 200: pageSchema(ACCOUNT_DETAIL_SCHEMA) } } },
    async () => ({ data: (await deps.accounts.list()).map(view), nextCursor: null }),
  );

  app.post<{ Body: { email: string; role: AccountRole } }>(
    '/accounts',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['accounts'],
        summary: 'Create an account; the answer holds the one-time link that lets its owner set a password',
        body: {
          type: 'object',
          properties: { email: EMAIL_SCHEMA, role: { type: 'string', enum: ['admin', 'member'] } },
          required: ['email', 'role'],
          additionalProperties: false,
        },
        response: {
          201: { type: 'object', properties: { account: ACCOUNT_DETAIL_SCHEMA, setupUrl: { type: 'string' } }, required: ['account', 'setupUrl'] },
        },
      },
    },
    async (request, reply) => {
      const account = newAccount(request.body.email, request.body.role);
      if (await deps.accounts.findByEmail(account.email)) {
        throw new GatewayError('invalid_request', 'An account with this email exists.', { status: 409, code: 'conflict', param: 'email' });
      }
      await deps.accounts.insert(account);
      const setupUrl = await issueSetupLink(deps.accounts, account.id, publicBaseUrl(request));
      await deps.audit.record(request, 'account.create', account.id, { email: account.email, role: account.role });
      return reply.code(201).send({ account: view(account), setupUrl });
    },
  );

  app.post<{ Params: { id: string } }>(
    '/accounts/:id/setup-link',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['accounts'],
        summary: 'A new one-time link to set (or reset) the password of an account; earlier links stop working',
        params: ID_PARAMS,
        response: { 200: { type: 'object', properties: { setupUrl: { type: 'string' } }, required: ['setupUrl'] } },
      },
    },
    async (request) => {
      const account = await deps.accounts.findById(request.params.id);
      if (!account) throw new GatewayError('not_found', 'No such account.', { code: 'not_found' });
      const setupUrl = await issueSetupLink(deps.accounts, account.id, publicBaseUrl(request));
      await deps.audit.record(request, 'account.setup_link', account.id);
      return { setupUrl };
    },
  );

  app.patch<{ Params: { id: string }; Body: { role?: AccountRole; disabled?: boolean } }>(
    '/accounts/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['accounts'],
        summary: "Change an account's role, or disable it (its sessions end; its keys stop working) or enable it again",
        params: ID_PARAMS,
        body: {
          type: 'object',
          properties: { role: { type: 'string', enum: ['admin', 'member'] }, disabled: { type: 'boolean' } },
          additionalProperties: false,
          minProperties: 1,
        },
        response: { 200: ACCOUNT_DETAIL_SCHEMA },
      },
    },
    async (request) => {
      const { id } = request.params;
      const account = await deps.accounts.findById(id);
      if (!account) throw new GatewayError('not_found', 'No such account.', { code: 'not_found' });
      const { role, disabled } = request.body;
      const losesAdmin = account.role === 'admin' && (role === 'member' || disabled === true);
      if (losesAdmin && !(await otherUsableAdmin(deps, id))) {
        throw new GatewayError('invalid_request', 'This is the last admin who can sign in; make another admin first.', { status: 409, code: 'conflict' });
      }
      await deps.accounts.update(id, {
        role,
        disabledAt: disabled === undefined ? undefined : disabled ? (account.disabledAt ?? Date.now()) : null,
      });
      if (disabled === true) {
        await deps.sessions.deleteForAccount(id);
        deps.invalidation.publish('keys');
      }
      await deps.audit.record(request, 'account.update', id, { role, disabled });
      const updated = await deps.accounts.findById(id);
      return view(updated as Account);
    },
  );

  app.post<{ Body: { currentPassword: string; newPassword: string } }>(
    '/accounts/me/password',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['accounts'],
        summary: "Change the signed-in account's password (its other sessions end)",
        body: {
          type: 'object',
          properties: { currentPassword: PASSWORD_SCHEMA, newPassword: PASSWORD_SCHEMA },
          required: ['currentPassword', 'newPassword'],
          additionalProperties: false,
        },
        response: NO_CONTENT,
      },
    },
    async (request, reply) => {
      const actor = request.actor;
      if (actor?.kind !== 'account' || actor.accountId === null || actor.sessionId === undefined)
        throw new GatewayError('invalid_request', 'Only a signed-in account has a password.', { code: 'no_session' });
      const account = await deps.accounts.findById(actor.accountId);
      if (!account || !(await deps.auth.checkCurrentPassword(request, reply, account, actor.sessionId, request.body.currentPassword))) {
        throw new GatewayError('invalid_request', 'The current password is wrong.', { param: 'currentPassword', code: 'invalid_credentials' });
      }
      checkNewPassword(request.body.newPassword, 'newPassword');
      await deps.accounts.update(account.id, { passwordHash: await hashPassword(request.body.newPassword) });
      await deps.sessions.deleteOthers(account.id, actor.sessionId ?? '');
      await deps.audit.record(request, 'account.change_password', account.id);
      return reply.code(204).send();
    },
  );
}

async function otherUsableAdmin(deps: AdminDeps, exceptId: string): Promise<boolean> {
  return (await deps.accounts.list()).some((a) => a.id !== exceptId && a.role === 'admin' && a.disabledAt === null && a.passwordHash !== null);
}
