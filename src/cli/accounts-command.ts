/** `gengate accounts create|list|link`: dashboard accounts from the command line. */
import { firstAdminLink, issueSetupLink, newAccount } from '../admin/setup-links.js';
import type { GatewayConfig } from '../config/types.js';
import { AccountsRepository } from '../store/accounts-repository.js';
import { AuditRepository } from '../store/audit-repository.js';
import { openStore } from '../store/open-store.js';
import { CONFIG_OPTION, parseCommandLine } from './parse-command-line.js';
import { UsageError } from './usage.js';

type LoadConfig = (configPath: string | undefined) => GatewayConfig;

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** Where the printed links point: the configured public URL, else the local listen address. */
function baseUrlOf(config: GatewayConfig): string {
  const host = config.server.host === '0.0.0.0' || config.server.host === '::' ? '127.0.0.1' : config.server.host;
  return config.media.publicBaseUrl ?? `http://${host.includes(':') ? `[${host}]` : host}:${config.server.port}`;
}

function parseEmail(value: string | undefined): string {
  if (value === undefined) throw new UsageError('--email is required');
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) throw new UsageError(`--email "${value.slice(0, 60)}" is not an email address`);
  return email;
}

async function withAccounts<T>(config: GatewayConfig, work: (accounts: AccountsRepository, audit: AuditRepository) => Promise<T>): Promise<T> {
  const store = await openStore(config.databaseUrl);
  try {
    return await work(new AccountsRepository(store.db), new AuditRepository(store.db));
  } finally {
    await store.close();
  }
}

const cliActor = { at: 0, actor_kind: 'cli', actor_id: null, actor_label: 'command line', ip: null };

export async function accountsCommand(args: string[], loadConfig: LoadConfig): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'create') {
    const { values } = parseCommandLine('accounts create', rest, { ...CONFIG_OPTION, email: { type: 'string' }, role: { type: 'string' } }, { min: 0, max: 0 });
    const email = parseEmail(values.email);
    const role = values.role ?? 'member';
    if (role !== 'admin' && role !== 'member') throw new UsageError(`--role must be admin or member, not "${role.slice(0, 40)}"`);
    const config = loadConfig(values.config);
    const link = await withAccounts(config, async (accounts, audit) => {
      if (await accounts.findByEmail(email)) return undefined;
      const account = newAccount(email, role);
      await accounts.insert(account);
      await audit.append({ ...cliActor, at: Date.now(), action: 'account.create', target: account.id, details: JSON.stringify({ email, role }) });
      return issueSetupLink(accounts, account.id, baseUrlOf(config));
    });
    if (!link) {
      console.error(`gengate: an account ${email} exists; for a new password link use \`gengate accounts link --email ${email}\``);
      process.exitCode = 1;
      return;
    }
    console.log(`created ${role} account ${email}\n\nOpen this one-time link (valid 24 hours) to set its password:\n\n  ${link}\n`);
    return;
  }
  if (action === 'link') {
    const { values } = parseCommandLine('accounts link', rest, { ...CONFIG_OPTION, email: { type: 'string' } }, { min: 0, max: 0 });
    const email = parseEmail(values.email);
    const config = loadConfig(values.config);
    const link = await withAccounts(config, async (accounts, audit) => {
      const account = await accounts.findByEmail(email);
      if (!account) return undefined;
      await audit.append({ ...cliActor, at: Date.now(), action: 'account.setup_link', target: account.id, details: null });
      return issueSetupLink(accounts, account.id, baseUrlOf(config));
    });
    if (!link) {
      console.error(`gengate: no account ${email} (see \`gengate accounts list\`)`);
      process.exitCode = 1;
      return;
    }
    console.log(`One-time link (valid 24 hours) to set the password of ${email}; earlier links stop working:\n\n  ${link}\n`);
    return;
  }
  if (action === 'list') {
    const { values } = parseCommandLine('accounts list', rest, CONFIG_OPTION, { min: 0, max: 0 });
    const list = await withAccounts(loadConfig(values.config), (accounts) => accounts.list());
    if (list.length === 0) console.log('no accounts yet: `gengate start` prints a link for the first admin');
    for (const account of list) {
      const state = account.disabledAt !== null ? 'disabled' : account.passwordHash === null ? 'waiting for its link' : 'active';
      console.log(`${account.email}\t${account.role}\t${state}`);
    }
    return;
  }
  if (action === 'first-admin-link') {
    const { values } = parseCommandLine('accounts first-admin-link', rest, CONFIG_OPTION, { min: 0, max: 0 });
    const config = loadConfig(values.config);
    const link = await withAccounts(config, (accounts) => firstAdminLink(accounts, baseUrlOf(config)));
    console.log(link ?? 'an admin can sign in already: use `gengate accounts link --email …` to reset a password');
    return;
  }
  throw new UsageError(action ? `unknown accounts action "${action}": use create, link or list` : '"gengate accounts" needs an action: create, link or list');
}
