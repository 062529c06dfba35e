/**
 * Channel `options` through the admin API: a Bedrock channel created with `options.region` signs
 * its calls for that region (the fake Bedrock runtime accepts only its own region's SigV4 scope),
 * a change of options is in force when the answer comes — here and on a second gateway sharing
 * the database — a bad option is a 400 naming it, and an option its provider declares secret
 * (Replicate's `webhookSecret`) is sealed at rest, shown only as a hint and kept by a change that
 * leaves it out.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeAnthropicUpstream, startFakeAnthropicUpstream } from '../fakes/fake-anthropic-upstream.js';
import { BEDROCK_CHANNEL_KEY, type FakeBedrock, startFakeBedrock } from '../fakes/fake-bedrock.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { AdminClient } from './admin-client.js';

const MASTER = 'gg-master-channel-options-0123456789';
const LLAMA = 'meta.llama3-3-70b-instruct-v1:0';
const WEBHOOK_SECRET = 'whsec_optionsTestSecretValue0123456789';
/** The gateway runs in this process: its region must come from the channel, not from these. */
const AWS_VARIABLES = ['AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_BEARER_TOKEN_BEDROCK', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'];

describe('admin API: channel options', () => {
  let anthropic: FakeAnthropicUpstream;
  let ireland: FakeBedrock;
  let first: RunningGateway;
  let second: RunningGateway;
  let admin: AdminClient;
  let dir: string;
  const savedEnv: Record<string, string | undefined> = {};

  beforeAll(async () => {
    for (const name of AWS_VARIABLES) {
      savedEnv[name] = process.env[name];
      delete process.env[name];
    }
    anthropic = await startFakeAnthropicUpstream();
    ireland = await startFakeBedrock({ anthropic: anthropic.url }, { region: 'eu-west-1' });
    dir = mkdtempSync(join(tmpdir(), 'gengate-channel-options-'));
    const shared = { masterKey: MASTER, databaseUrl: `sqlite:${join(dir, 'gengate.db')}`, secretKey: Buffer.alloc(32, 5).toString('base64') };
    first = await startGateway(shared);
    second = await startGateway(shared);
    admin = new AdminClient(first.url, MASTER);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
    await ireland?.close();
    await anthropic?.close();
    rmSync(dir, { recursive: true, force: true });
    for (const name of AWS_VARIABLES) if (savedEnv[name] !== undefined) process.env[name] = savedEnv[name];
  });

  const bedrockChannel = (overrides: Record<string, unknown> = {}) => ({
    name: 'bedrock-eu',
    provider: 'bedrock',
    baseUrl: ireland.url,
    apiKey: BEDROCK_CHANNEL_KEY,
    models: ['llama-eu'],
    modelMap: { 'llama-eu': LLAMA },
    options: { region: 'eu-west-1' },
    ...overrides,
  });
  const chat = (gateway: RunningGateway) =>
    new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: gateway.key, maxRetries: 0 }).chat.completions.create({
      model: 'llama-eu',
      messages: [{ role: 'user', content: 'Say hi' }],
    });
  const scopeOf = (authorization: string | undefined) => /Credential=[^/]+\/\d{8}\/([^/]+)\/bedrock\//.exec(authorization ?? '')?.[1];

  /** Asks `gateway` until `check` passes (the second gateway hears a change within a poll of the shared file). */
  async function eventually(check: () => Promise<void>, withinMs = 5_000): Promise<void> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      try {
        return await check();
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  it('creates a Bedrock channel whose region is its option, and routes to that region', async () => {
    const created = await admin.call('POST', '/channels', bedrockChannel());
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.channel.options).toEqual({ region: 'eu-west-1' });

    const answer = await chat(first);
    expect(answer.choices[0].message.content).toBe(`Hello from ${LLAMA}. You said: Say hi`);
    expect(scopeOf(ireland.calls.at(-1)?.headers.authorization as string)).toBe('eu-west-1');

    const listed = await admin.call('GET', '/channels');
    const shown = listed.body.data.find((c: { name: string }) => c.name === 'bedrock-eu');
    expect(shown).toMatchObject({ options: { region: 'eu-west-1' }, secretOptionHints: {} });

    // The other gateway on the same database builds the channel with the same option.
    await eventually(async () => {
      expect((await chat(second)).choices[0].message.content).toContain(LLAMA);
    });
  });

  it('puts a change of options in force here and on the other gateway', async () => {
    const moved = await admin.call('PATCH', '/channels/bedrock-eu', { options: { region: 'us-west-2' } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.channel.options).toEqual({ region: 'us-west-2' });
    // Signed for us-west-2 now, which the eu-west-1 endpoint refuses.
    const refused = ireland.refusedAuthorizations.length;
    await expect(chat(first)).rejects.toMatchObject({ status: 502 });
    expect(scopeOf(ireland.refusedAuthorizations.at(-1))).toBe('us-west-2');
    expect(ireland.refusedAuthorizations.length).toBe(refused + 1);
    await eventually(async () => {
      await expect(chat(second)).rejects.toMatchObject({ status: 502 });
    });

    const back = await admin.call('PATCH', '/channels/bedrock-eu', { options: { region: 'eu-west-1' } });
    expect(back.status).toBe(200);
    expect((await chat(first)).choices[0].message.content).toContain(LLAMA);
    await eventually(async () => {
      expect((await chat(second)).choices[0].message.content).toContain(LLAMA);
    });
    // A change that gives no options keeps them.
    expect((await admin.call('PATCH', '/channels/bedrock-eu', { priority: 3 })).body.channel.options).toEqual({ region: 'eu-west-1' });
  });

  it('refuses a bad option with a 400 naming it, storing nothing', async () => {
    const cases: Array<[unknown, string]> = [
      [{ region: 'mars-north-9000' }, 'channel.options.region must be an AWS region'],
      [{ region: 42 }, 'channel.options.region must be an AWS region'],
      [{ region: { nested: 'eu-west-1' } }, 'channel.options.region must be a string'],
      [{ region: 'x'.repeat(5000) }, 'channel.options.region must be a string'],
      [{ failModels: [[['deep']]] }, 'channel.options.failModels must be'],
      [['region', 'eu-west-1'], 'options'],
      ['region=eu-west-1', 'options'],
      [{ 'bad name': 1 }, 'options'],
    ];
    for (const [options, named] of cases) {
      const answer = await admin.call('POST', '/channels', bedrockChannel({ name: 'bedrock-bad', options }));
      expect(answer.status, JSON.stringify(options).slice(0, 80)).toBe(400);
      expect(answer.body.error.code).toMatch(/invalid/);
      expect(answer.body.error.message).toContain(named);
    }
    const changed = await admin.call('PATCH', '/channels/bedrock-eu', { options: { region: 'EU-WEST-1' } });
    expect(changed.status).toBe(400);
    expect(changed.body.error.message).toContain('channel.options.region');
    const names = (await admin.call('GET', '/channels')).body.data.map((c: { name: string }) => c.name);
    expect(names).not.toContain('bedrock-bad');
    expect((await admin.call('GET', '/channels')).body.data.find((c: { name: string }) => c.name === 'bedrock-eu').options).toEqual({ region: 'eu-west-1' });
  });

  it('seals a secret option, shows it only as a hint, and keeps it through a change that leaves it out', async () => {
    const created = await admin.call('POST', '/channels', {
      name: 'replicate-hooks',
      provider: 'replicate',
      apiKey: 'r8_optionsTestToken0123456789',
      models: ['owner/model'],
      enabled: false,
      options: { webhookSecret: WEBHOOK_SECRET, pollIntervalMs: 250 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.channel.options).toEqual({ pollIntervalMs: 250 });
    expect(created.body.channel.secretOptionHints).toEqual({ webhookSecret: 'whs…6789' });
    const listing = await admin.call('GET', '/channels');
    expect(JSON.stringify(listing.body)).not.toContain(WEBHOOK_SECRET);
    expect(readFileSync(join(dir, 'gengate.db')).includes(WEBHOOK_SECRET)).toBe(false);

    const changed = await admin.call('PATCH', '/channels/replicate-hooks', { options: { pollIntervalMs: 500 } });
    expect(changed.status).toBe(200);
    expect(changed.body.channel).toMatchObject({ options: { pollIntervalMs: 500 }, secretOptionHints: { webhookSecret: 'whs…6789' } });

    const removed = await admin.call('PATCH', '/channels/replicate-hooks', { options: { webhookSecret: null } });
    expect(removed.body.channel).toMatchObject({ options: {}, secretOptionHints: {} });

    const wrongType = await admin.call('PATCH', '/channels/replicate-hooks', { options: { webhookSecret: 'has a space' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.error.message).toContain('channel.options.webhookSecret');
    expect(wrongType.body.error.message).not.toContain('has a space');
  });
});
