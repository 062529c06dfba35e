/**
 * Channels through the admin API, end to end: a channel created over HTTP is tested, routed to
 * by the `openai` SDK without a restart, edited, disabled, reordered and deleted; configured
 * channels are listed read-only; only admins may touch channels; bad input is a 400 in the admin
 * shape; and the credential never shows — not in answers, errors, the audit log or the database file.
 */
import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../../src/observability/logger.js';
import { type FakeOpenAIUpstream, startFakeOpenAIUpstream } from '../fakes/fake-openai-upstream.js';
import { openaiUpChannel } from '../helpers/fake-channels.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { AdminClient, signedInClient } from './admin-client.js';

const MASTER = 'gg-master-channels-test-0123456789';
const SECRET = 'sk-house-secret-abcdef1234567890';
const HEADER_SECRET = 'org-secret-header-value-42';

describe('admin API: channels', () => {
  let upstream: FakeOpenAIUpstream;
  let configuredUpstream: FakeOpenAIUpstream;
  let running: RunningGateway;
  let admin: AdminClient;
  let dir: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gengate-channels-'));
    upstream = await startFakeOpenAIUpstream({ apiKey: SECRET });
    configuredUpstream = await startFakeOpenAIUpstream();
    running = await startGateway({
      masterKey: MASTER,
      databaseUrl: `sqlite:${join(dir, 'gengate.db')}`,
      secretKey: Buffer.alloc(32, 9).toString('base64'),
      router: { failureThreshold: 1 },
      channels: [openaiUpChannel(configuredUpstream, { name: 'yaml-openai', models: ['textmodel-b-4o-mini'] })],
      // Everything the gateway logs, at the most detailed level, is kept to be searched for credentials.
      logger: pino({ ...loggerOptions('trace') }, { write: (line: string) => logLines.push(line) }),
    });
    admin = new AdminClient(running.url, MASTER);
  });
  afterAll(async () => {
    await running?.close();
    await upstream?.close();
    await configuredUpstream?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const sdk = () => new OpenAI({ baseURL: `${running.url}/v1`, apiKey: running.key, maxRetries: 0 });
  const ask = (model = 'house-model') =>
    sdk()
      .chat.completions.create({ model, messages: [{ role: 'user', content: 'Hello' }] })
      .withResponse();
  const houseChannel = (overrides: Record<string, unknown> = {}) => ({
    name: 'house',
    provider: 'openai',
    baseUrl: upstream.url,
    apiKey: SECRET,
    headers: { 'x-org': HEADER_SECRET },
    models: ['house-model'],
    modelMap: { 'house-model': 'gpt-4o-mini' },
    ...overrides,
  });
  const neverShowsSecrets = (answer: { body: unknown }) => {
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(SECRET.slice(3, -4));
    expect(text).not.toContain(HEADER_SECRET);
  };

  it('lists the providers from their descriptors', async () => {
    const answer = await admin.call('GET', '/providers');
    expect(answer.status).toBe(200);
    const openai = answer.body.data.find((p: { name: string }) => p.name === 'openai');
    expect(openai).toEqual({
      name: 'openai',
      operations: expect.arrayContaining(['chat', 'embed']),
      dialect: 'openai',
      defaultBaseUrl: 'https://api.openai.com/v1',
    });
    expect(answer.body.data.find((p: { name: string }) => p.name === 'openai-compatible').defaultBaseUrl).toBeNull();
  });

  it('lists a configured channel read-only, with a hint of its key and never the key', async () => {
    const answer = await admin.call('GET', '/channels');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([
      expect.objectContaining({ name: 'yaml-openai', provider: 'openai', source: 'config', readOnly: true, credentialHint: 'sk-…ream', circuit: 'closed' }),
    ]);
    expect(answer.body.data[0]).not.toHaveProperty('apiKey');
    expect(JSON.stringify(answer.body)).not.toContain('sk-fake-openai-upstream');
  });

  it('creates a channel, tests it, and routes an SDK call through it without a restart', async () => {
    const created = await admin.call('POST', '/channels', houseChannel());
    expect(created.status).toBe(201);
    expect(created.body.channel).toMatchObject({
      name: 'house',
      source: 'stored',
      readOnly: false,
      credentialHint: 'sk-…7890',
      headerNames: ['x-org'],
      enabled: true,
      priority: 0,
      circuit: 'closed',
    });
    neverShowsSecrets(created);

    const tested = await admin.call('POST', '/channels/house/test', {});
    expect(tested.status).toBe(200);
    expect(tested.body).toMatchObject({ ok: true, model: 'house-model', operation: 'chat' });
    expect(tested.body.latencyMs).toBeGreaterThanOrEqual(0);
    expect(typeof tested.body.sample).toBe('string');
    expect(tested.body.sample.length).toBeGreaterThan(0);
    expect(tested.body.sample.length).toBeLessThanOrEqual(200);
    const probe = upstream.requests.at(-1);
    expect(probe?.body).toMatchObject({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'ping' }] });
    expect(probe?.headers['x-org']).toBe(HEADER_SECRET);

    const { data, response } = await ask();
    expect(response.headers.get('x-gengate-channel')).toBe('house');
    expect(data.choices[0].message.content).toBeTruthy();
    expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`);
  });

  it('tests an embedding model with one short input', async () => {
    const created = await admin.call('POST', '/channels', {
      name: 'house-embed',
      provider: 'openai',
      baseUrl: upstream.url,
      apiKey: SECRET,
      models: ['text-embedding-004'],
      modelMap: { 'text-embedding-004': 'text-embedding-3-small' },
      enabled: false,
    });
    expect(created.status).toBe(201);
    const tested = await admin.call('POST', '/channels/house-embed/test');
    expect(tested.body).toMatchObject({ ok: true, model: 'text-embedding-004', operation: 'embed', sample: '1536 dimensions' });
    expect(upstream.requests.at(-1)).toMatchObject({ path: '/v1/embeddings', body: { model: 'text-embedding-3-small', input: ['ping'] } });
    const wrongModel = await admin.call('POST', '/channels/house-embed/test', { model: 'house-model' });
    expect(wrongModel.status).toBe(400);
    expect(wrongModel.body.error.code).toBe('model_not_served');
    expect((await admin.call('DELETE', '/channels/house-embed')).status).toBe(204);
  });

  it('edits: a new key is used at once and never shown; without apiKey the stored key stays', async () => {
    const wrongKey = 'sk-wrong-key-0000000000000000';
    const patched = await admin.call('PATCH', '/channels/house', { apiKey: wrongKey });
    expect(patched.status).toBe(200);
    expect(patched.body.channel.credentialHint).toBe('sk-…0000');
    const failing = await admin.call('POST', '/channels/house/test', {});
    expect(failing.status).toBe(200);
    expect(failing.body).toMatchObject({ ok: false, model: 'house-model', operation: 'chat', status: 401 });
    expect(failing.body.message).toBeTruthy();
    expect(JSON.stringify(failing.body)).not.toContain(wrongKey);

    expect((await admin.call('PATCH', '/channels/house', { apiKey: SECRET })).status).toBe(200);
    const timeout = await admin.call('PATCH', '/channels/house', { timeoutMs: 30_000, priority: 2 });
    expect(timeout.body.channel).toMatchObject({ timeoutMs: 30_000, priority: 2, credentialHint: 'sk-…7890', headerNames: ['x-org'] });
    const { response } = await ask();
    expect(response.headers.get('x-gengate-channel')).toBe('house');
    expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(upstream.requests.at(-1)?.headers['x-org']).toBe(HEADER_SECRET);
  });

  it('disabling takes the channel out of routing at once; enabling puts it back', async () => {
    expect((await admin.call('PATCH', '/channels/house', { enabled: false })).body.channel.enabled).toBe(false);
    const refused = await ask().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.NotFoundError);
    expect((await admin.call('PATCH', '/channels/house', { enabled: true })).status).toBe(200);
    expect((await ask()).response.headers.get('x-gengate-channel')).toBe('house');
  });

  it('reorders priority and weight of several channels in one transaction, and deletes', async () => {
    const second = await admin.call('POST', '/channels', houseChannel({ name: 'house-b', headers: undefined }));
    expect(second.status).toBe(201);
    const reordered = await admin.call('PUT', '/channels/order', {
      channels: [
        { name: 'house', priority: 1, weight: 3 },
        { name: 'house-b', priority: 5, weight: 2 },
      ],
    });
    expect(reordered.status).toBe(200);
    const names = reordered.body.data.map((c: { name: string }) => c.name);
    expect(names).toEqual(['yaml-openai', 'house-b', 'house']);
    expect(reordered.body.data[1]).toMatchObject({ priority: 5, weight: 2 });
    expect(reordered.body.data[2]).toMatchObject({ priority: 1, weight: 3 });
    expect((await ask()).response.headers.get('x-gengate-channel')).toBe('house-b');

    const partly = await admin.call('PUT', '/channels/order', {
      channels: [
        { name: 'house', priority: 9, weight: 1 },
        { name: 'nowhere', priority: 1, weight: 1 },
      ],
    });
    expect(partly.status).toBe(404);
    const after = await admin.call('GET', '/channels');
    expect(after.body.data.find((c: { name: string }) => c.name === 'house')).toMatchObject({ priority: 1, weight: 3 });
    const twice = await admin.call('PUT', '/channels/order', {
      channels: [
        { name: 'house', priority: 1, weight: 1 },
        { name: 'house', priority: 2, weight: 1 },
      ],
    });
    expect(twice.status).toBe(400);

    expect((await admin.call('DELETE', '/channels/house-b')).status).toBe(204);
    expect((await admin.call('DELETE', '/channels/house-b')).status).toBe(404);
    expect((await admin.call('GET', '/channels')).body.data.map((c: { name: string }) => c.name)).toEqual(['yaml-openai', 'house']);
    expect((await ask()).response.headers.get('x-gengate-channel')).toBe('house');
  });

  it('refuses to change a configured channel (409) or to reuse a name', async () => {
    for (const [method, path, body] of [
      ['PATCH', '/channels/yaml-openai', { priority: 3 }],
      ['DELETE', '/channels/yaml-openai', undefined],
      ['PUT', '/channels/order', { channels: [{ name: 'yaml-openai', priority: 1, weight: 1 }] }],
      ['POST', '/channels', houseChannel({ name: 'yaml-openai' })],
      ['POST', '/channels', houseChannel()],
      ['POST', '/channels', houseChannel({ name: 'sandbox' })],
    ] as const) {
      const answer = await admin.call(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(409);
      expect(answer.body.error.code).toBe('conflict');
      neverShowsSecrets(answer);
    }
    const tested = await admin.call('POST', '/channels/yaml-openai/test');
    expect(tested.body).toMatchObject({ ok: true, model: 'textmodel-b-4o-mini', operation: 'chat' });
    expect((await admin.call('PATCH', '/channels/nowhere', { priority: 1 })).status).toBe(404);
    expect((await admin.call('POST', '/channels/nowhere/test')).status).toBe(404);
  });

  it('answers bad input with a 400 in the admin error shape, echoing no credential', async () => {
    const cases: Array<Record<string, unknown>> = [
      houseChannel({ name: 'x1', provider: 'no-such-provider' }),
      houseChannel({ name: 'x2', baseUrl: 'ftp://example.com/v1' }),
      houseChannel({ name: 'x3', baseUrl: 'not a url' }),
      houseChannel({ name: 'x4', models: [] }),
      houseChannel({ name: 'x5', models: undefined }),
      houseChannel({ name: 'x6', baseUrl: `https://user:${SECRET}@example.com/v1` }),
      houseChannel({ name: 'bad name/with slash' }),
      houseChannel({ name: 'x7', unknownField: true }),
      houseChannel({ name: 'x8', provider: 'openai-compatible', baseUrl: undefined }),
      houseChannel({ name: 'x9', headers: { 'x-org': 'line\r\nbreak' } }),
      houseChannel({ name: 'x10', priority: 'high' }),
    ];
    for (const body of cases) {
      const answer = await admin.call('POST', '/channels', JSON.parse(JSON.stringify(body)));
      expect(answer.status, JSON.stringify(body.name)).toBe(400);
      expect(answer.body.error).toMatchObject({ code: expect.any(String), message: expect.any(String), requestId: expect.any(String) });
      neverShowsSecrets(answer);
    }
    const unknown = await admin.call('POST', '/channels', houseChannel({ name: 'x1', provider: 'no-such-provider' }));
    expect(unknown.body.error.message).toMatch(/provider must be one of/);
    expect((await admin.call('PATCH', '/channels/house', {})).status).toBe(400);
    expect((await admin.call('PATCH', '/channels/house', { baseUrl: 'ftp://x' })).status).toBe(400);
    expect((await admin.call('GET', '/channels')).body.data.map((c: { name: string }) => c.name)).toEqual(['yaml-openai', 'house']);
  });

  it('is for admins only: a member gets 403, an anonymous caller 401', async () => {
    const member = await signedInClient(running, 'member@example.com', 'member');
    for (const [method, path, body] of [
      ['GET', '/channels', undefined],
      ['GET', '/providers', undefined],
      ['POST', '/channels', houseChannel({ name: 'member-made' })],
      ['PATCH', '/channels/house', { priority: 9 }],
      ['DELETE', '/channels/house', undefined],
      ['POST', '/channels/house/test', {}],
    ] as const) {
      const answer = await member.call(method, path, body);
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.error.code).toBe('forbidden');
    }
    expect((await new AdminClient(running.url).call('GET', '/channels')).status).toBe(401);
  });

  it('audits every change with field names only, never a credential', async () => {
    const audit = await admin.call('GET', '/audit?limit=200');
    expect(audit.status).toBe(200);
    const actions = audit.body.data.map((entry: { action: string }) => entry.action);
    for (const action of ['channel.create', 'channel.update', 'channel.reorder', 'channel.delete', 'channel.test']) expect(actions).toContain(action);
    const keyChange = audit.body.data.find(
      (entry: { action: string; details: { fields?: string[] } }) => entry.action === 'channel.update' && entry.details.fields?.includes('apiKey'),
    );
    expect(keyChange).toMatchObject({ target: 'house', details: { fields: ['apiKey'] }, actor: { kind: 'master' } });
    neverShowsSecrets(audit);
    expect(JSON.stringify(audit.body)).not.toContain('sk-wrong-key');
  });

  it('keeps no plaintext credential in the SQLite database file or its WAL', async () => {
    const files = ['gengate.db', 'gengate.db-wal'].map((name) => join(dir, name)).filter((path) => existsSync(path));
    const bytes = Buffer.concat(files.map((path) => readFileSync(path)));
    expect(bytes.includes('house-model')).toBe(true); // the channel is in there…
    expect(bytes.includes(SECRET)).toBe(false); // …but not its key
    expect(bytes.includes(SECRET.slice(8, 24))).toBe(false);
    expect(bytes.includes(HEADER_SECRET)).toBe(false);
    expect(bytes.includes('sk-wrong-key')).toBe(false);
  });

  it('describes every channel route in the OpenAPI document', async () => {
    const doc = await new AdminClient(running.url).call('GET', '/openapi.json');
    expect(doc.status).toBe(200);
    const paths = doc.body.paths;
    expect(Object.keys(paths)).toEqual(
      expect.arrayContaining([
        '/admin/v1/providers',
        '/admin/v1/channels',
        '/admin/v1/channels/order',
        '/admin/v1/channels/{name}',
        '/admin/v1/channels/{name}/test',
      ]),
    );
    expect(paths['/admin/v1/channels'].post.requestBody.content['application/json'].schema.required).toEqual(['name', 'provider', 'models']);
    expect(Object.keys(paths['/admin/v1/channels/{name}'])).toEqual(expect.arrayContaining(['patch', 'delete']));
    expect(paths['/admin/v1/channels'].get.responses['200'].content['application/json'].schema.properties.data.items.properties).not.toHaveProperty('apiKey');
  });

  it("shows the circuit breaker's state of each channel; a test goes past an open circuit", async () => {
    configuredUpstream.setNext('fail-500');
    await expect(ask('textmodel-b-4o-mini')).rejects.toBeInstanceOf(OpenAI.InternalServerError);
    const listed = await admin.call('GET', '/channels');
    expect(listed.body.data.find((c: { name: string }) => c.name === 'yaml-openai').circuit).toBe('open');
    expect(listed.body.data.find((c: { name: string }) => c.name === 'house').circuit).toBe('closed');
    expect((await admin.call('POST', '/channels/yaml-openai/test')).body.ok).toBe(true);
  });

  it('wrote no credential to the log', () => {
    expect(logLines.length).toBeGreaterThan(0);
    const text = logLines.join('');
    for (const secret of [SECRET, HEADER_SECRET, 'sk-wrong-key', 'sk-fake-openai-upstream', MASTER]) expect(text).not.toContain(secret);
  });
});
