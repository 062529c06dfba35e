/** Who is calling the admin API: a signed-in account, an admin API key, or the master key. */
import type { AccountRole } from '../store/schema.js';

export interface Actor {
  kind: 'account' | 'key' | 'master';
  /** The account acting (for a key: the key's account); null for the master key and operator keys. */
  accountId: string | null;
  role: AccountRole;
  /** For the audit log: an email, `key <id>` or `master key`. */
  label: string;
  email?: string;
  /** The browser session (kind `account`), whose CSRF token guards state changes. */
  sessionId?: string;
  /** The key used (kind `key`). */
  keyId?: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    actor?: Actor;
  }
  interface FastifyContextConfig {
    /** Who may call an admin route; every admin route must say. */
    access?: AdminAccess;
  }
}

type AdminAccess = 'public' | 'signed-in' | 'admin';

export function isAdmin(actor: Actor): boolean {
  return actor.role === 'admin';
}

/**
 * The account a member's listings are limited to; undefined for an admin (who sees every account).
 * A member without an account cannot exist, so the fallback never matches a row.
 */
export function accountScope(actor: Actor): string | undefined {
  return isAdmin(actor) ? undefined : (actor.accountId ?? '\u0000none');
}
