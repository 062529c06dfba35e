/** `gengate keys create|list|revoke`. */
import { createApiKey } from '../auth/key-admin.js';
import type { GatewayConfig } from '../config/types.js';
import { ApiKeysRepository } from '../store/api-keys-repository.js';
import { openStore } from '../store/open-store.js';
import { loadSecretKey } from '../store/credential-cipher.js';
import { webhookSecretFor } from '../tasks/webhook-secret.js';
import { parseExpiry, parseKeyName, parseModelPatterns } from './key-options.js';
import { formatKeysTable, keysAsJson } from './keys-table.js';
import { CONFIG_OPTION, parseCommandLine } from './parse-command-line.js';
import { UsageError } from './usage.js';

type LoadConfig = (configPath: string | undefined) => GatewayConfig;

async function withKeys<T>(config: GatewayConfig, work: (keys: ApiKeysRepository) => Promise<T>): Promise<T> {
  const store = await openStore(config.databaseUrl);
  try {
    return await work(new ApiKeysRepository(store.db));
  } finally {
    await store.close();
  }
}

export async function keysCommand(args: string[], loadConfig: LoadConfig): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'create') {
    const { values } = parseCommandLine(
      'keys create',
      rest,
      { ...CONFIG_OPTION, name: { type: 'string' }, models: { type: 'string' }, expires: { type: 'string' } },
      { min: 0, max: 0 },
    );
    // Every value is checked before the database is opened.
    const name = parseKeyName(values.name);
    const models = parseModelPatterns(values.models);
    const expiresAt = parseExpiry(values.expires, Date.now());
    const config = loadConfig(values.config);
    const { key, record } = await withKeys(config, (keys) => createApiKey(keys, { name, models, expiresAt }));
    console.log(`created key ${record.id} (${record.name})`);
    console.log(`  models:  ${record.models ? record.models.join(', ') : 'any'}`);
    console.log(`  expires: ${record.expiresAt ? new Date(record.expiresAt).toISOString() : 'never'}`);
    console.log(`\n  ${key}\n\nThe key is shown once; only its hash is stored.`);
    return;
  }
  if (action === 'list') {
    const { values } = parseCommandLine('keys list', rest, { ...CONFIG_OPTION, json: { type: 'boolean' } }, { min: 0, max: 0 });
    const list = await withKeys(loadConfig(values.config), (keys) => keys.list());
    const now = Date.now();
    if (values.json) console.log(keysAsJson(list, now));
    else console.log(list.length === 0 ? 'no keys yet: create one with `gengate keys create`' : formatKeysTable(list, now));
    return;
  }
  if (action === 'revoke') {
    const { values, positionals } = parseCommandLine('keys revoke', rest, CONFIG_OPTION, { min: 1, max: 1, names: 'a KEY_ID (see `gengate keys list`)' });
    const id = positionals[0];
    const revoked = await withKeys(loadConfig(values.config), (keys) => keys.revoke(id, Date.now()));
    if (revoked) console.log(`revoked ${id}`);
    else {
      console.error(`gengate: no active key ${id} (see \`gengate keys list\`)`);
      process.exitCode = 1;
    }
    return;
  }
  if (action === 'webhook-secret') {
    const { values, positionals } = parseCommandLine('keys webhook-secret', rest, CONFIG_OPTION, {
      min: 1,
      max: 1,
      names: 'a KEY_ID (see `gengate keys list`)',
    });
    const config = loadConfig(values.config);
    const id = positionals[0];
    const known = await withKeys(config, async (keys) => (await keys.list()).some((key) => key.id === id));
    if (!known) {
      console.error(`gengate: no key ${id} (see \`gengate keys list\`)`);
      process.exitCode = 1;
      return;
    }
    console.log(webhookSecretFor(loadSecretKey({ secretKey: config.secretKey, dataDir: config.dataDir }), id));
    return;
  }
  throw new UsageError(
    action
      ? `unknown keys action "${action}": use create, list, revoke or webhook-secret`
      : '"gengate keys" needs an action: create, list, revoke or webhook-secret',
  );
}
