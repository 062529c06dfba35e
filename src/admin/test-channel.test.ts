import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelDefaults } from '../config/defaults.js';
import { DEFAULT_CONFIG } from '../config/defaults.js';
import type { ChannelDefinition } from '../config/types.js';
import { ProviderRegistry } from '../providers/registry.js';
import { Catalog } from '../routing/catalog.js';
import { createSandboxProvider } from '../sandbox/index.js';
import { credentialHint, withoutCredentials } from './channel-view.js';
import { testChannel } from './test-channel.js';

const providers = new ProviderRegistry([createSandboxProvider(DEFAULT_CONFIG.sandbox)]);
const catalog = Catalog.withOverrides([]);

describe('testChannel', () => {
  let silent: Server;
  let url: string;
  beforeAll(async () => {
    // Accepts requests and never answers.
    silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => {
    silent.closeAllConnections();
    silent.close();
  });

  const channel = (overrides: Partial<ChannelDefinition>): ChannelDefinition => ({
    ...channelDefaults(),
    name: 't',
    provider: 'openai',
    baseUrl: url,
    apiKey: 'sk-unit-secret-0123456789',
    models: ['textmodel-b-*'],
    ...overrides,
  });

  it('gives up after its timeout and says so, naming the model it chose from the catalog for a wildcard channel', async () => {
    const result = await testChannel(channel({}), { providers, catalog, requestId: 'r1', timeoutMs: 200 });
    expect(result).toMatchObject({ ok: false, operation: 'chat', status: 504, message: 'No answer within 200 ms.' });
    expect(result.model.startsWith('textmodel-b-')).toBe(true);
    expect(result.latencyMs).toBeGreaterThanOrEqual(150);
    expect(result.latencyMs).toBeLessThan(5_000);
  });

  it('answers through the sandbox with a short sample', async () => {
    const result = await testChannel(channel({ provider: 'sandbox', models: ['textmodel-b-4o-mini'] }), { providers, catalog, requestId: 'r2' });
    expect(result).toMatchObject({ ok: true, model: 'textmodel-b-4o-mini', operation: 'chat' });
    expect(result.sample?.length).toBeLessThanOrEqual(200);
  });

  it('refuses a model the channel does not serve, and a channel with nothing testable', async () => {
    await expect(testChannel(channel({}), { providers, catalog, requestId: 'r3' }, 'other-model')).rejects.toMatchObject({
      status: 400,
      code: 'model_not_served',
    });
    await expect(testChannel(channel({ provider: 'bfl', models: ['flux-*'] }), { providers, catalog, requestId: 'r4' })).rejects.toMatchObject({
      status: 400,
      code: 'not_testable',
    });
  });
});

describe('credentials in views', () => {
  it('hints a key without giving it away', () => {
    expect(credentialHint('')).toBeNull();
    expect(credentialHint('sk-proj-abcdefghijklmnopqrstuvwxyz')).toBe('sk-…wxyz');
    expect(credentialHint('short-key-12')).toBe('…12');
    expect(credentialHint('tiny')).toBe('…');
  });

  it('masks the key and header values in text about the channel', () => {
    expect(withoutCredentials('bad key sk-abc123 and org-x9', { provider: 'openai', apiKey: 'sk-abc123', headers: { 'x-org': 'org-x9' }, options: {} })).toBe(
      'bad key [redacted] and [redacted]',
    );
  });

  it('masks the options its provider declares secret, and only those', () => {
    const replicate = { provider: 'replicate', apiKey: '', headers: {}, options: { webhookSecret: 'whsec_abc123', deadlineMs: 60000 } };
    expect(withoutCredentials('secret whsec_abc123 after 60000 ms', replicate)).toBe('secret [redacted] after 60000 ms');
  });
});
