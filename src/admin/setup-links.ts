/**
 * One-time links that let a person set an account's password: the first admin's (printed in
 * the start banner), an invited member's, a reset. The token travels in the URL fragment, so
 * browsers never send it in a Referer or to the server's access log; only its hash is stored.
 */
import { randomBytes } from 'node:crypto';
import { randomId } from '../core/ids.js';
import type { Account, AccountsRepository } from '../store/accounts-repository.js';
import type { AccountRole } from '../store/schema.js';
import { sha256 } from './admin-auth.js';

const SETUP_LINK_MS = 24 * 3_600_000;
/** The account made for the first admin when none exists; its email can be changed when the link is used. */
const FIRST_ADMIN_EMAIL = 'admin@gengate.local';

export async function issueSetupLink(accounts: AccountsRepository, accountId: string, baseUrl: string, now = Date.now()): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await accounts.createLink({ idHash: sha256(token), accountId, purpose: 'setup', createdAt: now, expiresAt: now + SETUP_LINK_MS });
  return `${baseUrl.replace(/\/+$/, '')}/dashboard/setup#token=${token}`;
}

export function newAccount(email: string, role: AccountRole, now = Date.now()): Account {
  return {
    id: `acc_${randomId(16)}`,
    email: email.trim().toLowerCase(),
    role,
    passwordHash: null,
    models: null,
    createdAt: now,
    updatedAt: now,
    disabledAt: null,
  };
}

/**
 * When no admin can sign in yet, a fresh link to set the first admin's password (made for the
 * waiting admin account, or a new one); undefined once an admin has a password.
 */
export async function firstAdminLink(accounts: AccountsRepository, baseUrl: string): Promise<string | undefined> {
  if (await accounts.hasUsableAdmin()) return undefined;
  const waiting = (await accounts.list()).find((account) => account.role === 'admin' && account.disabledAt === null);
  const account = waiting ?? newAccount(FIRST_ADMIN_EMAIL, 'admin');
  if (!waiting) await accounts.insert(account);
  return issueSetupLink(accounts, account.id, baseUrl);
}
