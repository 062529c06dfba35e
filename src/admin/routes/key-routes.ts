/**
 * API keys: list, create (the secret is in the answer once, never again), revoke. Members work
 * on their own account's keys only (another account's key is "not found", like an unknown one)
 * and hold at most `limits.maxKeysPerAccount` active keys; admins work on every key, unlimited.
 * A revocation reaches every process on the database within a poll.
 */
import type { FastifyInstance } from 'fastify';
import { createApiKey } from '../../auth/key-admin.js';
import {
  keyNameProblem,
  keyStatus,
  MAX_KEY_NAME_CHARS,
  MAX_MODEL_PATTERN_CHARS,
  MAX_MODEL_PATTERNS,
  modelPatternsProblem,
  patternsOutside,
} from '../../auth/key-rules.js';
import { GatewayError } from '../../core/errors.js';
import type { Account } from '../../store/accounts-repository.js';
import { KeyLimitError, type StoredApiKey } from '../../store/api-keys-repository.js';
import { type Actor, accountScope, isAdmin } from '../actor.js';
import type { AdminDeps } from '../admin-deps.js';
import { pageSchema } from '../admin-schemas.js';
import { PAGE_QUERY_SCHEMA, decodeCursor, isTimeTextCursor, pageOf } from '../paging.js';

/** Far enough for any real expiry; keeps the number a valid time. */
const MAX_TIME_MS = 8_640_000_000_000_000;

const KEY_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    hint: { type: 'string', description: 'The first characters of the key, to tell keys apart' },
    models: { type: ['array', 'null'], items: { type: 'string' }, description: 'Model id patterns (`*` wildcard); null for any model' },
    expiresAt: { type: ['number', 'null'] },
    revokedAt: { type: ['number', 'null'] },
    createdAt: { type: 'number' },
    accountId: { type: ['string', 'null'], description: 'null for an operator key' },
    accountEmail: { type: ['string', 'null'] },
    admin: { type: 'boolean', description: 'Whether the key may call the admin API' },
    status: { type: 'string', enum: ['active', 'revoked', 'expired'] },
  },
  required: ['id', 'name', 'hint', 'models', 'expiresAt', 'revokedAt', 'createdAt', 'accountId', 'accountEmail', 'admin', 'status'],
} as const;

const ID_PARAMS = { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] } as const;

interface CreateBody {
  name: string;
  models?: string[] | null;
  expiresAt?: number | null;
  admin?: boolean;
  accountId?: string | null;
}

const view = (key: StoredApiKey, accountEmail: string | null, now = Date.now()) => ({
  id: key.id,
  name: key.name,
  hint: key.keyHint,
  models: key.models,
  expiresAt: key.expiresAt,
  revokedAt: key.revokedAt,
  createdAt: key.createdAt,
  accountId: key.accountId,
  accountEmail,
  admin: key.admin,
  status: keyStatus(key, now),
});

function invalid(message: string, param: string, code = 'invalid_value'): GatewayError {
  return new GatewayError('invalid_request', message, { param, code });
}

/** The account a new key will belong to: the caller's, or (admins only) the one named; null for an operator key. */
async function ownerOf(actor: Actor, requested: string | null | undefined, deps: AdminDeps): Promise<Account | null> {
  let accountId = actor.accountId;
  if (requested !== undefined && requested !== actor.accountId) {
    if (!isAdmin(actor)) throw new GatewayError('permission', 'A member may only create keys for their own account.', { code: 'forbidden' });
    accountId = requested;
  }
  if (accountId === null) return null;
  const account = await deps.accounts.findById(accountId);
  if (!account) throw invalid('No account has this id.', 'accountId', 'unknown_account');
  if (account.disabledAt !== null)
    throw new GatewayError('invalid_request', 'This account is disabled.', { status: 409, code: 'conflict', param: 'accountId' });
  return account;
}

/** The key's model patterns, checked against the account's restriction (a key of a restricted account inherits it when it names none). */
function modelsFor(requested: string[] | null | undefined, account: Account | null): string[] | null {
  let models: string[] | null = null;
  if (requested !== undefined && requested !== null) {
    const trimmed = requested.map((pattern) => pattern.trim());
    const problem = modelPatternsProblem(trimmed);
    if (problem) throw invalid(`models ${problem}; send null (or leave models out) for a key that may use any model.`, 'models');
    models = [...new Set(trimmed)];
  }
  const allowed = account?.models ?? null;
  if (allowed === null) return models;
  if (models === null) return allowed;
  const outside = patternsOutside(models, allowed);
  if (outside.length > 0) {
    throw new GatewayError('permission', `The account may not use ${outside.map((p) => JSON.stringify(p)).join(', ')}; it may use ${allowed.join(', ')}.`, {
      param: 'models',
      code: 'models_not_allowed',
    });
  }
  return models;
}

export function keyRoutes(app: FastifyInstance, deps: AdminDeps): void {
  app.get<{ Querystring: { limit: number; cursor?: string; account?: string } }>(
    '/keys',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['keys'],
        summary: "API keys, newest first: a member's own account's, or (admin) every key or one account's",
        querystring: {
          type: 'object',
          properties: {
            ...PAGE_QUERY_SCHEMA,
            account: { type: 'string', maxLength: 64, description: 'An account id (admin only; members always see their own)' },
          },
          additionalProperties: false,
        },
        response: { 200: pageSchema(KEY_SCHEMA) },
      },
    },
    async (request) => {
      const actor = request.actor as Actor;
      const { limit, cursor, account } = request.query;
      const before = decodeCursor(cursor, isTimeTextCursor);
      const rows = await deps.keys.page({ accountId: accountScope(actor) ?? account, before }, limit + 1);
      const now = Date.now();
      return pageOf(
        rows,
        limit,
        (row) => view(row, row.accountEmail, now),
        (row) => [row.createdAt, row.id],
      );
    },
  );

  app.post<{ Body: CreateBody }>(
    '/keys',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['keys'],
        summary:
          "Create an API key; the answer holds its secret, shown this once. A member's account holds at most `limits.maxKeysPerAccount` active keys (409 `key_limit_reached` past it)",
        body: {
          type: 'object',
          properties: {
            // Room for surrounding spaces; the trimmed name is held to MAX_KEY_NAME_CHARS characters below.
            name: { type: 'string', minLength: 1, maxLength: MAX_KEY_NAME_CHARS * 2 },
            models: {
              type: ['array', 'null'],
              maxItems: MAX_MODEL_PATTERNS,
              items: { type: 'string', minLength: 1, maxLength: MAX_MODEL_PATTERN_CHARS },
              description: 'Model id patterns (`*` wildcard); null or absent for any model the account may use',
            },
            expiresAt: { type: ['integer', 'null'], minimum: 0, maximum: MAX_TIME_MS, description: 'Unix milliseconds, in the future; null for never' },
            admin: { type: 'boolean', description: 'May call the admin API (admins only, for an admin account or an operator key)' },
            accountId: { type: ['string', 'null'], maxLength: 64, description: 'The account the key is for (admins only; default: the account of the caller)' },
          },
          required: ['name'],
          additionalProperties: false,
        },
        response: { 201: { type: 'object', properties: { key: KEY_SCHEMA, secret: { type: 'string' } }, required: ['key', 'secret'] } },
      },
    },
    async (request, reply) => {
      const actor = request.actor as Actor;
      const body = request.body;
      const name = body.name.trim();
      const nameProblem = keyNameProblem(name);
      if (nameProblem) throw invalid(`name ${nameProblem}.`, 'name');
      const now = Date.now();
      if (body.expiresAt !== undefined && body.expiresAt !== null && body.expiresAt <= now) {
        throw invalid('expiresAt is not in the future: a key must expire after it is created.', 'expiresAt', 'invalid_expiry');
      }
      const account = await ownerOf(actor, body.accountId, deps);
      if (body.admin) {
        if (!isAdmin(actor)) throw new GatewayError('permission', 'Only an admin may create admin keys.', { code: 'forbidden', param: 'admin' });
        if (account && account.role !== 'admin') throw invalid('Only an admin account may hold an admin key.', 'admin');
      }
      const models = modelsFor(body.models, account);
      const maxActive = isAdmin(actor) ? undefined : deps.config.limits.maxKeysPerAccount;
      const { key: secret, record } = await createApiKey(deps.keys, {
        name,
        models,
        expiresAt: body.expiresAt ?? null,
        accountId: account?.id ?? null,
        admin: body.admin ?? false,
        maxActive,
      }).catch((error: unknown) => {
        if (!(error instanceof KeyLimitError)) throw error;
        throw new GatewayError('invalid_request', `This account already holds ${error.limit} active keys, the most a member may; revoke one to make room.`, {
          status: 409,
          code: 'key_limit_reached',
        });
      });
      // Only the new key is read (not every key); other processes read it on their next poll.
      await deps.keyDirectory.refresh();
      await deps.audit.record(request, 'key.create', record.id, {
        name,
        accountId: record.accountId,
        models: record.models,
        expiresAt: record.expiresAt,
        admin: record.admin,
      });
      return reply.code(201).send({ key: view(record, account?.email ?? null, now), secret });
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/keys/:id',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['keys'],
        summary: 'Revoke an API key; every process refuses it within a second. Revoking a revoked key changes nothing',
        params: ID_PARAMS,
        response: { 200: { type: 'object', properties: { key: KEY_SCHEMA }, required: ['key'] } },
      },
    },
    async (request) => {
      const actor = request.actor as Actor;
      const scope = accountScope(actor);
      const key = await deps.keys.findById(request.params.id);
      if (!key || (scope !== undefined && key.accountId !== scope)) throw new GatewayError('not_found', 'No such key.', { code: 'not_found' });
      if (await deps.keys.revoke(key.id, Date.now())) {
        // In force here before the answer (its calls in flight cut); other processes hear of it from the store's bus,
        // at once where a notice carries it (PostgreSQL's NOTIFY, a SQLite file's Redis, a cluster's primary), not at their next poll.
        await deps.keyDirectory.refresh();
        deps.invalidation.publish('keys');
        await deps.audit.record(request, 'key.revoke', key.id, { name: key.name, accountId: key.accountId });
      }
      const revoked = (await deps.keys.findById(key.id)) as StoredApiKey;
      const account = revoked.accountId === null ? undefined : await deps.accounts.findById(revoked.accountId);
      return { key: view(revoked, account?.email ?? null) };
    },
  );
}
