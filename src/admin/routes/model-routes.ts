/**
 * Models and prices: the catalog as the running gateway sees it (signed in), and an admin's
 * changes to it, stored in the database over the shipped catalog and gengate.yaml's `models:`,
 * in force at once (here, then in every process through the `catalog` invalidation).
 */
import type { FastifyInstance } from 'fastify';
import { ConfigError } from '../../config/config-error.js';
import { KNOWN_CAPABILITIES, KNOWN_OPERATIONS, parseModelOverride } from '../../config/parse-model-entry.js';
import type { CatalogEntry, ModelOverride } from '../../config/types.js';
import { GatewayError } from '../../core/errors.js';
import { catalogEntries } from '../../gateway/live-catalog.js';
import { ModelOverridesRepository } from '../../store/model-overrides-repository.js';
import type { AdminDeps } from '../admin-deps.js';
import { NO_CONTENT } from '../admin-schemas.js';

/** No real price comes near this (USD per million tokens, or per image / second of video). */
const MAX_PRICE_USD = 1_000_000;
const PRICE_FIELDS = ['input', 'output', 'cacheRead', 'cacheWrite', 'perUnit'] as const;
const AMOUNT = { type: 'number', minimum: 0, maximum: MAX_PRICE_USD } as const;

/** The long-context tier: the whole call at these prices once its input tokens exceed `threshold`. */
const ABOVE_SCHEMA = {
  type: 'object',
  properties: { threshold: { type: 'integer', minimum: 1, maximum: 100_000_000 }, input: AMOUNT, output: AMOUNT, cacheRead: AMOUNT, cacheWrite: AMOUNT },
  required: ['threshold', 'input', 'output'],
  additionalProperties: false,
} as const;

const PRICE_SCHEMA = {
  type: 'object',
  properties: { ...Object.fromEntries(PRICE_FIELDS.map((field) => [field, AMOUNT])), above: ABOVE_SCHEMA },
  additionalProperties: false,
} as const;

const PRICE_SOURCE_SCHEMA = {
  type: 'object',
  properties: { url: { type: 'string', minLength: 1, maxLength: 500 }, date: { type: 'string', pattern: '^\\d{4}-\\d{2}(-\\d{2})?$' } },
  required: ['url', 'date'],
  additionalProperties: false,
} as const;

const CAPABILITIES_SCHEMA = {
  type: 'array',
  items: { type: 'string', enum: KNOWN_CAPABILITIES },
  maxItems: KNOWN_CAPABILITIES.length,
  uniqueItems: true,
} as const;

const MODEL_SCHEMA = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    displayName: { type: 'string' },
    ownedBy: { type: 'string' },
    operations: { type: 'array', items: { type: 'string' } },
    price: { anyOf: [PRICE_SCHEMA, { type: 'null' }] },
    inputTokenLimit: { type: ['number', 'null'] },
    outputTokenLimit: { type: ['number', 'null'] },
    capabilities: {
      anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }],
      description: 'What routing checks the model for; null: unknown (not filtered).',
    },
    priceSource: { anyOf: [PRICE_SOURCE_SCHEMA, { type: 'null' }], description: 'Where the price was read, and its date.' },
    channels: { type: 'array', items: { type: 'string' } },
    overridden: { type: 'boolean' },
  },
  required: ['id', 'displayName', 'ownedBy', 'operations', 'price', 'channels', 'overridden'],
} as const;

const ID_PARAMS = {
  type: 'object',
  properties: { id: { type: 'string', minLength: 1, maxLength: 256, pattern: '^\\S+$' } },
  required: ['id'],
} as const;

const TOKEN_LIMIT = { type: 'integer', minimum: 1, maximum: 100_000_000 } as const;

type ModelChange = Omit<ModelOverride, 'id'>;

export function modelRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const overrides = new ModelOverridesRepository(deps.db);

  const view = (entry: CatalogEntry, overridden: Set<string>) => {
    const snapshot = deps.registry.current();
    const channels = new Set(entry.operations.flatMap((operation) => snapshot.candidates(entry.id, operation).map((channel) => channel.name)));
    return {
      id: entry.id,
      displayName: entry.displayName,
      ownedBy: entry.ownedBy,
      operations: entry.operations,
      price: entry.price ?? null,
      inputTokenLimit: entry.inputTokenLimit ?? null,
      outputTokenLimit: entry.outputTokenLimit ?? null,
      capabilities: entry.capabilities ?? null,
      priceSource: entry.priceSource ?? null,
      channels: [...channels],
      overridden: overridden.has(entry.id),
    };
  };

  /** Puts the stored overrides in force here and now, then tells the other processes. */
  const applyStored = async (): Promise<Set<string>> => {
    const stored = (await overrides.list()).map((row) => row.override);
    deps.catalog.replace(catalogEntries(deps.config.models, stored, deps.logger));
    await deps.liveChannels.reload();
    deps.invalidation.publish('catalog');
    return new Set(stored.map((override) => override.id));
  };

  app.get(
    '/models',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['models'],
        summary: 'The model catalog in force: operations, prices, the channels serving each model, and whether an admin changed it',
        response: { 200: { type: 'object', properties: { data: { type: 'array', items: MODEL_SCHEMA } }, required: ['data'] } },
      },
    },
    async () => {
      const overridden = new Set((await overrides.list()).map((row) => row.override.id));
      return { data: deps.catalog.all().map((entry) => view(entry, overridden)) };
    },
  );

  app.put<{ Params: { id: string }; Body: ModelChange }>(
    '/models/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['models'],
        summary:
          "Change a model (the fields given replace the catalog's; price fields one by one) or add one (operations required); replaces the model's earlier stored change",
        params: ID_PARAMS,
        body: {
          type: 'object',
          properties: {
            displayName: { type: 'string', minLength: 1, maxLength: 200 },
            ownedBy: { type: 'string', minLength: 1, maxLength: 100 },
            operations: { type: 'array', items: { type: 'string', enum: KNOWN_OPERATIONS }, minItems: 1, maxItems: KNOWN_OPERATIONS.length, uniqueItems: true },
            price: PRICE_SCHEMA,
            inputTokenLimit: TOKEN_LIMIT,
            outputTokenLimit: TOKEN_LIMIT,
            capabilities: CAPABILITIES_SCHEMA,
            priceSource: PRICE_SOURCE_SCHEMA,
          },
          additionalProperties: false,
          minProperties: 1,
        },
        response: { 200: { type: 'object', properties: { model: MODEL_SCHEMA }, required: ['model'] } },
      },
    },
    async (request) => {
      const { id } = request.params;
      let override: ModelOverride;
      try {
        override = parseModelOverride({ ...request.body, id }, 'model');
      } catch (error) {
        if (error instanceof ConfigError) throw new GatewayError('invalid_request', error.message, { code: 'invalid_model' });
        throw error;
      }
      // A model outside the shipped and configured catalog is added, so it must say what it serves.
      if (!override.operations && !catalogEntries(deps.config.models, []).some((entry) => entry.id === id)) {
        throw new GatewayError('invalid_request', `Model ${id} is not in the catalog: adding it needs operations.`, {
          code: 'invalid_model',
          param: 'operations',
        });
      }
      await overrides.put(override, Date.now());
      const overridden = await applyStored();
      await deps.audit.record(request, 'model.update', id, { change: request.body });
      const entry = deps.catalog.get(id) as CatalogEntry;
      return { model: view(entry, overridden) };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/models/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['models'],
        summary: "Remove a model's stored change: the catalog's (and gengate.yaml's) definition applies again; a model an admin added is gone",
        params: ID_PARAMS,
        response: NO_CONTENT,
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      if (!(await overrides.remove(id))) throw new GatewayError('not_found', `Model ${id} has no stored change.`, { code: 'not_found' });
      await applyStored();
      await deps.audit.record(request, 'model.reset', id);
      return reply.code(204).send();
    },
  );
}
