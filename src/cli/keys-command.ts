/** `gengate keys create|list|revoke`. */
import { cliAudit } from './cli-audit.js';
import { createApiKey } from '../auth/key-admin.js';
import { patternsOutside } from '../auth/key-rules.js';
import type { GatewayConfig } from '../config/types.js';
import { AccountsRepository } from '../store/accounts-repository.js';
import { ApiKeysRepository } from '../store/api-keys-repository.js';
import { AuditRepository } from '../store/audit-repository.js';
import { openStore } from '../store/open-store.js';
import { loadSecretKey } from '../store/credential-cipher.js';
import { webhookSecretFor } from '../tasks/webhook-secret.js';
import { parseAccountEmail, parseExpiry, parseKeyName, parseModelPatterns } from './key-options.js';
import { formatKeysTable, keysAsJson } from './keys-table.js';
import { CONFIG_OPTION, parseCommandLine } from './parse-command-line.js';
import { UsageError } from './usage.js';

type LoadConfig = (configPath: string | undefined) => GatewayConfig;

interface KeyStores {
  keys: ApiKeysRepository;
  accounts: AccountsRepository;
  /** Writes the audit log entry of a change made from the command line (never a secret). */
  audit(action: string, target: string, details: Record<string, unknown>): Promise<void>;
}

async function withKeys<T>(config: GatewayConfig, work: (stores: KeyStores) => Promise<T>): Promise<T> {
  const store = await openStore(config.databaseUrl);
  try {
    const keys = new ApiKeysRepository(store.db);
    const accounts = new AccountsRepository(store.db);
    const auditLog = new AuditRepository(store.db);
    const audit = cliAudit(auditLog);
    return await work({ keys, accounts, audit });
  } finally {
    await store.close();
  }
}

/** A mistake that only the database reveals (no such account, …): one line, exit 1. */
class KeyRefused extends Error {}

interface NewKey {
  name: string;
  models: string[] | null;
  expiresAt: number | null;
  accountEmail?: string;
  admin: boolean;
}

/** Creates the key, for the account named (whose model restriction it stays within) or as an operator key. */
async function createFor({ keys, accounts, audit }: KeyStores, wanted: NewKey) {
  let accountId: string | null = null;
  let models = wanted.models;
  if (wanted.accountEmail !== undefined) {
    const account = await accounts.findByEmail(wanted.accountEmail);
    if (!account) throw new KeyRefused(`no account ${wanted.accountEmail} (create it with the admin API or the dashboard first)`);
    if (account.disabledAt !== null) throw new KeyRefused(`the account ${account.email} is disabled`);
    if (wanted.admin && account.role !== 'admin') throw new KeyRefused(`--admin: ${account.email} is a member; only an admin account may hold an admin key`);
    if (account.models !== null) {
      const outside = models === null ? [] : patternsOutside(models, account.models);
      if (outside.length > 0) throw new KeyRefused(`--models: ${account.email} may not use ${outside.join(', ')} (it may use ${account.models.join(', ')})`);
      models ??= account.models;
    }
    accountId = account.id;
  }
  const created = await createApiKey(keys, { name: wanted.name, models, expiresAt: wanted.expiresAt, accountId, admin: wanted.admin });
  const { record } = created;
  await audit('key.create', record.id, { name: record.name, accountId, models: record.models, expiresAt: record.expiresAt, admin: record.admin });
  return created;
}

export async function keysCommand(args: string[], loadConfig: LoadConfig): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'create') {
    const { values } = parseCommandLine(
      'keys create',
      rest,
      {
        ...CONFIG_OPTION,
        name: { type: 'string' },
        models: { type: 'string' },
        expires: { type: 'string' },
        account: { type: 'string' },
        admin: { type: 'boolean' },
      },
      { min: 0, max: 0 },
    );
    // Every value is checked before the database is opened.
    const wanted: NewKey = {
      name: parseKeyName(values.name),
      models: parseModelPatterns(values.models),
      expiresAt: parseExpiry(values.expires, Date.now()),
      accountEmail: parseAccountEmail(values.account),
      admin: values.admin ?? false,
    };
    const config = loadConfig(values.config);
    let created: Awaited<ReturnType<typeof createFor>>;
    try {
      created = await withKeys(config, (stores) => createFor(stores, wanted));
    } catch (error) {
      if (!(error instanceof KeyRefused)) throw error;
      console.error(`gengate: ${error.message}`);
      process.exitCode = 1;
      return;
    }
    const { key, record } = created;
    console.log(`created key ${record.id} (${record.name})`);
    console.log(`  account: ${wanted.accountEmail ?? 'none (operator key)'}${record.admin ? ', may call the admin API' : ''}`);
    console.log(`  models:  ${record.models ? record.models.join(', ') : 'any'}`);
    console.log(`  expires: ${record.expiresAt ? new Date(record.expiresAt).toISOString() : 'never'}`);
    console.log(`\n  ${key}\n\nThe key is shown once; only its hash is stored.`);
    return;
  }
  if (action === 'list') {
    const { values } = parseCommandLine('keys list', rest, { ...CONFIG_OPTION, json: { type: 'boolean' } }, { min: 0, max: 0 });
    const [list, emails] = await withKeys(loadConfig(values.config), async ({ keys, accounts }) => [
      await keys.list(),
      new Map((await accounts.list()).map((account) => [account.id, account.email])),
    ]);
    const now = Date.now();
    if (values.json) console.log(keysAsJson(list, now, emails));
    else console.log(list.length === 0 ? 'no keys yet: create one with `gengate keys create`' : formatKeysTable(list, now, emails));
    return;
  }
  if (action === 'revoke') {
    const { values, positionals } = parseCommandLine('keys revoke', rest, CONFIG_OPTION, { min: 1, max: 1, names: 'a KEY_ID (see `gengate keys list`)' });
    const id = positionals[0];
    const revoked = await withKeys(loadConfig(values.config), async ({ keys, audit }) => {
      const done = await keys.revoke(id, Date.now());
      if (done) await audit('key.revoke', id, {});
      return done;
    });
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
    const known = await withKeys(config, async ({ keys }) => (await keys.list()).some((key) => key.id === id));
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
