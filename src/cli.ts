#!/usr/bin/env node
/**
 * The `gengate` command: `start` runs the gateway; `keys create|list|revoke` manage API keys;
 * `migrate` brings the database schema up to date.
 */
import { parseArgs } from 'node:util';
import { buildApp } from './app.js';
import { createApiKey } from './auth/key-admin.js';
import { ConfigError, loadConfig } from './config/load-config.js';
import type { GatewayConfig } from './config/types.js';
import { ApiKeysRepository } from './store/api-keys-repository.js';
import { openStore } from './store/open-store.js';
import { printStartBanner } from './start-banner.js';

const USAGE = `usage:
  gengate start [--config FILE]
  gengate keys create --name NAME [--models a,b*] [--expires 2027-01-01]
  gengate keys list
  gengate keys revoke KEY_ID
  gengate migrate

Configuration: gengate.yaml (or GENGATE_CONFIG) and environment variables; see docs/configuration.md.`;

async function start(config: GatewayConfig): Promise<void> {
  const gateway = await buildApp(config);
  let firstKey: string | undefined;
  if (!config.masterKey && (await gateway.keys.count()) === 0) {
    firstKey = (await createApiKey(gateway.keys, { name: 'first key' })).key;
  }
  const address = await gateway.http.listen({ host: config.server.host, port: config.server.port });
  printStartBanner(config, gateway.registry, address, firstKey);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) {
      // A second signal: the person wants out now. What was journaled is folded in at the next
      // start, and calls still open then are closed as interrupted.
      gateway.flushForExit();
      gateway.logger.warn({ signal }, 'second signal: exiting now; unfinished requests will be recorded as interrupted at the next start');
      process.exit(1);
    }
    stopping = true;
    gateway.logger.info({ signal, drainTimeoutMs: config.server.drainTimeoutMs }, 'draining: finishing open requests and flushing usage (a second signal exits at once)');
    gateway
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        gateway.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

async function withKeys<T>(config: GatewayConfig, work: (keys: ApiKeysRepository) => Promise<T>): Promise<T> {
  const store = await openStore(config.databaseUrl);
  try {
    return await work(new ApiKeysRepository(store.db));
  } finally {
    await store.close();
  }
}

function parseExpiry(value: string | undefined): number | null {
  if (!value) return null;
  const at = Date.parse(value);
  if (Number.isNaN(at)) throw new ConfigError(`--expires: not a date: ${value}`);
  return at;
}

async function keysCommand(config: GatewayConfig, args: string[]): Promise<void> {
  const [action, ...rest] = args;
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: { name: { type: 'string' }, models: { type: 'string' }, expires: { type: 'string' } },
  });
  if (action === 'create') {
    const models = values.models ? values.models.split(',').map((m) => m.trim()).filter(Boolean) : null;
    const expiresAt = parseExpiry(values.expires);
    const { key, record } = await withKeys(config, (keys) => createApiKey(keys, { name: values.name ?? 'unnamed', models, expiresAt }));
    console.log(`created key ${record.id} (${record.name})`);
    console.log(`  models:  ${record.models ? record.models.join(', ') : 'any'}`);
    console.log(`  expires: ${record.expiresAt ? new Date(record.expiresAt).toISOString() : 'never'}`);
    console.log(`\n  ${key}\n\nThe key is shown once; only its hash is stored.`);
    return;
  }
  if (action === 'list') {
    const list = await withKeys(config, (keys) => keys.list());
    if (list.length === 0) console.log('no keys');
    for (const key of list) {
      const state = key.revokedAt ? 'revoked' : key.expiresAt && key.expiresAt <= Date.now() ? 'expired' : 'active';
      console.log(
        [key.id, key.keyHint, state, key.name, key.models ? key.models.join(',') : 'any', key.expiresAt ? new Date(key.expiresAt).toISOString() : 'never'].join('\t'),
      );
    }
    return;
  }
  if (action === 'revoke') {
    const id = positionals[0];
    if (!id) throw new ConfigError('keys revoke needs a KEY_ID (see `gengate keys list`)');
    const revoked = await withKeys(config, (keys) => keys.revoke(id, Date.now()));
    console.log(revoked ? `revoked ${id}` : `no active key ${id}`);
    if (!revoked) process.exitCode = 1;
    return;
  }
  throw new ConfigError(USAGE);
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  const configIndex = rest.indexOf('--config');
  const configPath = configIndex >= 0 ? rest[configIndex + 1] : undefined;
  if (configIndex >= 0) rest.splice(configIndex, 2);
  if (!command || command === 'help' || command === '--help') {
    console.log(USAGE);
    return;
  }
  const config = loadConfig({ configPath });
  if (command === 'start') return start(config);
  if (command === 'keys') return keysCommand(config, rest);
  if (command === 'migrate') {
    const store = await openStore(config.databaseUrl);
    await store.close();
    console.log(`database schema is up to date (${store.dialect})`);
    return;
  }
  throw new ConfigError(`unknown command "${command}"\n\n${USAGE}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`gengate: ${error.message}`);
    process.exit(2);
  }
  console.error(error);
  process.exit(1);
});
