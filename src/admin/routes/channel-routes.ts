/**
 * Channels (admin): the providers there are, the channels in force — configured ones (YAML and
 * environment) read-only, stored ones editable — and a test of one channel. A change is stored
 * (credentials sealed), announced on the `channels` topic and in force when the answer comes.
 * No answer, error or audit entry carries a credential: keys and secret options show only as a hint,
 * headers by name. Provider `options` are checked by `validateChannel`, as the file's are.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ChannelDefinition } from '../../config/types.js';
import { PROBE_INTERVAL_BOUNDS } from '../../config/defaults.js';
import { ConfigError, validateChannel } from '../../config/validate-config.js';
import { GatewayError } from '../../core/errors.js';
import { PROVIDER_DESCRIPTORS } from '../../providers/registry.js';
import type { AdminDeps } from '../admin-deps.js';
import { NO_CONTENT } from '../admin-schemas.js';
import { CHANNEL_HEALTH_SCHEMA } from '../channel-health-schema.js';
import { changedOptions, flatOptionsError, MAX_OPTIONS, withoutNulls } from '../channel-options-change.js';
import { CHANNEL_VIEW_SCHEMA, type ChannelView, channelView } from '../channel-view.js';
import { testChannel } from '../test-channel.js';

const MAX_MODELS = 200;
const MAX_ORDER_ENTRIES = 200;
const NAME_SCHEMA = { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' } as const;
const MODEL_SCHEMA = { type: 'string', minLength: 1, maxLength: 200 } as const;
const PRIORITY_SCHEMA = { type: 'integer', minimum: -1_000_000_000, maximum: 1_000_000_000 } as const;
const WEIGHT_SCHEMA = { type: 'number', minimum: 0, maximum: 1_000_000 } as const;
/** Provider options: at most 32, each value flat and bounded (`flatOptionsError`); `null` removes one on a change. */
const OPTIONS_SCHEMA = {
  type: 'object',
  maxProperties: MAX_OPTIONS,
  propertyNames: { minLength: 1, maxLength: 64, pattern: '^[A-Za-z][A-Za-z0-9_]*$' },
  additionalProperties: true,
  description:
    "Provider options (Bedrock `region`, Vertex AI `project` and `location`, Azure OpenAI `apiVersion`, …), checked like the configuration file's; replaced as a whole when given, except that a secret option left out (Replicate's `webhookSecret`) keeps its stored value and `null` removes it. Secret options are stored encrypted and shown only as a hint",
} as const;

/** Fields an admin may set; `name` only at creation. */
const EDITABLE_PROPERTIES = {
  provider: { type: 'string', minLength: 1, maxLength: 64 },
  baseUrl: { type: 'string', maxLength: 2048 },
  apiKey: { type: 'string', maxLength: 8192, description: 'The upstream credential; stored encrypted, never shown again' },
  headers: {
    type: 'object',
    maxProperties: 32,
    propertyNames: { maxLength: 100, pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" },
    additionalProperties: { type: 'string', maxLength: 8192, pattern: '^[^\\r\\n]*$' },
    description: 'Extra upstream headers (they may carry credentials: stored encrypted, shown by name only); replaced as a whole when given',
  },
  models: { type: 'array', minItems: 1, maxItems: MAX_MODELS, items: MODEL_SCHEMA },
  modelMap: { type: 'object', maxProperties: MAX_MODELS, propertyNames: { maxLength: 200 }, additionalProperties: MODEL_SCHEMA },
  modelRewrite: {
    type: 'array',
    maxItems: 50,
    items: {
      type: 'object',
      properties: { from: { type: 'string', maxLength: 200 }, to: { type: 'string', maxLength: 200 } },
      required: ['from', 'to'],
      additionalProperties: false,
    },
  },
  priority: PRIORITY_SCHEMA,
  weight: WEIGHT_SCHEMA,
  enabled: { type: 'boolean' },
  timeoutMs: { type: 'integer', minimum: 1, maximum: 3_600_000 },
  options: OPTIONS_SCHEMA,
  probe: {
    type: ['object', 'null'],
    properties: {
      enabled: { type: 'boolean', description: 'Probe the upstream periodically (default true when `probe` is given)' },
      intervalSeconds: {
        type: 'integer',
        minimum: PROBE_INTERVAL_BOUNDS.min,
        maximum: PROBE_INTERVAL_BOUNDS.max,
        description: 'Seconds between probes (default 60)',
      },
      autoEnable: {
        type: 'boolean',
        description: 'Disable the channel after repeatedly refused credentials, and re-enable it when a probe passes (default false)',
      },
    },
    additionalProperties: false,
    description: 'Periodic health probes (each replica probes on its own); null removes them',
  },
} as const;

const NAME_PARAMS = { type: 'object', properties: { name: { type: 'string', maxLength: 64 } }, required: ['name'] } as const;
const CHANNEL_ANSWER = { type: 'object', properties: { channel: CHANNEL_VIEW_SCHEMA }, required: ['channel'] } as const;
const LIST_ANSWER = { type: 'object', properties: { data: { type: 'array', items: CHANNEL_VIEW_SCHEMA } }, required: ['data'] } as const;

type ChannelInput = Partial<Omit<ChannelDefinition, 'name' | 'options' | 'probe' | 'autoDisabledAt'>> & {
  probe?: Partial<ChannelDefinition['probe']> | null;
  options?: Record<string, unknown>;
};

const conflict = (message: string) => new GatewayError('invalid_request', message, { status: 409, code: 'conflict' });
const noSuchChannel = (name: string) => new GatewayError('not_found', `No channel is named "${name}".`, { code: 'not_found' });
const readOnly = (name: string) =>
  conflict(`The channel "${name}" comes from the configuration file or the environment and is read-only here; change it there.`);

/** The definition with defaults filled in, checked like a YAML channel (its host too); a mistake is a 400 naming the field. */
function checkDefinition(raw: Record<string, unknown>, allowPrivateBaseUrls: boolean): ChannelDefinition {
  let definition: ChannelDefinition;
  try {
    definition = validateChannel(raw, 'channel', PROVIDER_DESCRIPTORS, { allowPrivateBaseUrls });
  } catch (error) {
    if (error instanceof ConfigError) throw new GatewayError('invalid_request', error.message, { code: 'invalid_channel' });
    throw error;
  }
  if (definition.models.length === 0) throw new GatewayError('invalid_request', 'channel.models must name at least one model.', { param: 'models' });
  return definition;
}

function refuseNestedOptions(options: Record<string, unknown> | undefined): void {
  const error = options && flatOptionsError(options);
  if (error) throw new GatewayError('invalid_request', error, { param: 'options', code: 'invalid_channel' });
}

export function channelRoutes(app: FastifyInstance, deps: AdminDeps): void {
  const configured = (name: string) => deps.config.channels.find((c) => c.name === name);
  const view = (definition: ChannelDefinition, source: 'config' | 'stored'): ChannelView =>
    channelView(definition, source, deps.services.lifecycle.circuit(definition.name));
  const listing = async (): Promise<ChannelView[]> => {
    const stored = (await deps.channels.list()).filter((c) => !configured(c.name));
    stored.sort((a, b) => b.priority - a.priority || a.name.localeCompare(b.name));
    return [...deps.config.channels.map((c) => view(c, 'config')), ...stored.map((c) => view(c, 'stored'))];
  };
  /** Announces the change and waits until this process has it in force. */
  const apply = async () => {
    deps.invalidation.publish('channels');
    await deps.liveChannels.settled();
  };
  const storedOrThrow = async (name: string): Promise<ChannelDefinition> => {
    if (configured(name)) throw readOnly(name);
    const definition = await deps.channels.get(name);
    if (!definition) throw noSuchChannel(name);
    return definition;
  };
  const audit = (request: FastifyRequest, action: string, target: string | null, details?: Record<string, unknown>) =>
    deps.audit.record(request, action, target, details);

  app.get(
    '/providers',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['channels'],
        summary: 'The kinds of upstream a channel can point at',
        response: {
          200: {
            type: 'object',
            properties: {
              data: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    name: { type: 'string' },
                    operations: { type: 'array', items: { type: 'string' } },
                    dialect: { type: ['string', 'null'] },
                    defaultBaseUrl: { type: ['string', 'null'] },
                  },
                  required: ['name', 'operations', 'dialect', 'defaultBaseUrl'],
                },
              },
            },
            required: ['data'],
          },
        },
      },
    },
    async () => ({
      data: PROVIDER_DESCRIPTORS.map((d) => ({
        name: d.name,
        operations: [...d.operations],
        dialect: d.dialect ?? null,
        defaultBaseUrl: d.defaultBaseUrl ?? null,
      })),
    }),
  );

  app.get(
    '/channels',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['channels'],
        summary: 'Every channel: configured ones (read-only) first, then stored ones by priority',
        response: { 200: LIST_ANSWER },
      },
    },
    async () => ({ data: await listing() }),
  );

  app.get(
    '/channels/health',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['channels'],
        summary: "Each channel's health in this process: circuit, last probes, upstream error rate over 5 minutes",
        response: { 200: { type: 'object', properties: { data: { type: 'array', items: CHANNEL_HEALTH_SCHEMA } }, required: ['data'] } },
      },
    },
    async () => ({ data: deps.prober.snapshot() }),
  );

  app.post<{ Body: ChannelInput & { name: string } }>(
    '/channels',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['channels'],
        summary: 'Store a new channel; it is in force when the answer comes',
        body: {
          type: 'object',
          properties: { name: NAME_SCHEMA, ...EDITABLE_PROPERTIES },
          required: ['name', 'provider', 'models'],
          additionalProperties: false,
        },
        response: { 201: CHANNEL_ANSWER },
      },
    },
    async (request, reply) => {
      refuseNestedOptions(request.body.options);
      const body = request.body.options ? { ...request.body, options: withoutNulls(request.body.options) } : request.body;
      const definition = checkDefinition(body, deps.config.router.allowPrivateBaseUrls);
      const { name } = definition;
      const taken = configured(name) || deps.registry.current().channel(name) || (await deps.channels.names()).includes(name);
      if (taken) throw conflict(`A channel named "${name}" exists.`);
      try {
        await deps.channels.insert(definition);
      } catch (error) {
        if (await deps.channels.get(name).catch(() => undefined)) throw conflict(`A channel named "${name}" exists.`);
        throw error;
      }
      await apply();
      await audit(request, 'channel.create', name, { provider: definition.provider, fields: Object.keys(request.body).sort() });
      return reply.code(201).send({ channel: view(definition, 'stored') });
    },
  );

  app.put<{ Body: { channels: Array<{ name: string; priority: number; weight: number }> } }>(
    '/channels/order',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['channels'],
        summary: 'Set the priority and weight of several stored channels at once (all or none)',
        body: {
          type: 'object',
          properties: {
            channels: {
              type: 'array',
              minItems: 1,
              maxItems: MAX_ORDER_ENTRIES,
              items: {
                type: 'object',
                properties: { name: NAME_SCHEMA, priority: PRIORITY_SCHEMA, weight: WEIGHT_SCHEMA },
                required: ['name', 'priority', 'weight'],
                additionalProperties: false,
              },
            },
          },
          required: ['channels'],
          additionalProperties: false,
        },
        response: { 200: LIST_ANSWER },
      },
    },
    async (request) => {
      const entries = request.body.channels;
      const names = entries.map((e) => e.name);
      const repeated = names.find((name, i) => names.indexOf(name) !== i);
      if (repeated) throw new GatewayError('invalid_request', `The channel "${repeated}" is listed twice.`, { param: 'channels' });
      const fixed = names.find((name) => configured(name));
      if (fixed) throw readOnly(fixed);
      const { missing } = await deps.channels.reorder(entries);
      if (missing) throw noSuchChannel(missing);
      await apply();
      await audit(request, 'channel.reorder', null, { channels: entries });
      return { data: await listing() };
    },
  );

  app.patch<{ Params: { name: string }; Body: ChannelInput }>(
    '/channels/:name',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['channels'],
        summary:
          'Change a stored channel: only the fields given change (without apiKey the stored key stays; headers and options are replaced as a whole, but secret options left out stay)',
        params: NAME_PARAMS,
        body: { type: 'object', properties: EDITABLE_PROPERTIES, additionalProperties: false, minProperties: 1 },
        response: { 200: CHANNEL_ANSWER },
      },
    },
    async (request) => {
      const { name } = request.params;
      const current = await storedOrThrow(name);
      const given = Object.fromEntries(Object.entries(request.body).filter(([, value]) => value !== undefined));
      refuseNestedOptions(request.body.options);
      const provider = typeof given.provider === 'string' ? given.provider : current.provider;
      const options = changedOptions(current, request.body.options, provider);
      const checked = checkDefinition({ ...current, ...given, options, name }, deps.config.router.allowPrivateBaseUrls);
      // Still off by the gateway's switch unless the admin set `enabled`: a passing probe may still turn it back on.
      const keepsAutoDisabled = given.enabled === undefined && current.autoDisabledAt !== undefined;
      const definition = keepsAutoDisabled ? { ...checked, autoDisabledAt: current.autoDisabledAt } : checked;
      if (!(await deps.channels.update(name, definition))) throw noSuchChannel(name);
      await apply();
      await audit(request, 'channel.update', name, { fields: Object.keys(given).sort() });
      return { channel: view(definition, 'stored') };
    },
  );

  app.delete<{ Params: { name: string } }>(
    '/channels/:name',
    {
      config: { access: 'admin' },
      schema: { tags: ['channels'], summary: 'Remove a stored channel', params: NAME_PARAMS, response: NO_CONTENT },
    },
    async (request, reply) => {
      const { name } = request.params;
      if (configured(name)) throw readOnly(name);
      if (!(await deps.channels.delete(name))) throw noSuchChannel(name);
      await apply();
      await audit(request, 'channel.delete', name);
      return reply.code(204).send();
    },
  );

  app.post<{ Params: { name: string }; Body: { model?: string } | undefined }>(
    '/channels/:name/test',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['channels'],
        summary: 'Send one small real request through this channel only (no failover), within 15 s',
        params: NAME_PARAMS,
        body: { type: ['object', 'null'], properties: { model: MODEL_SCHEMA }, additionalProperties: false },
        response: {
          200: {
            type: 'object',
            properties: {
              ok: { type: 'boolean' },
              model: { type: 'string' },
              operation: { type: 'string', enum: ['chat', 'embed'] },
              latencyMs: { type: 'number' },
              status: { type: 'number' },
              message: { type: 'string' },
              sample: { type: 'string', maxLength: 200 },
            },
            required: ['ok', 'model', 'operation', 'latencyMs', 'message'],
          },
        },
      },
    },
    async (request) => {
      const { name } = request.params;
      const definition = configured(name) ?? (await deps.channels.get(name));
      if (!definition) throw noSuchChannel(name);
      const {
        errorType: _type,
        retryable: _retryable,
        ...result
      } = await testChannel(definition, { providers: deps.providers, catalog: deps.catalog, requestId: request.id }, request.body?.model);
      await audit(request, 'channel.test', name, { model: result.model, ok: result.ok, status: result.status });
      return result;
    },
  );
}
