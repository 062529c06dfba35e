/** `gengate keys list`: a table with a header row and aligned columns, or JSON. */
import { keyStatus as keyState } from '../auth/key-rules.js';
import type { StoredApiKey } from '../store/api-keys-repository.js';

/** Names stored before names were checked may hold tabs or newlines: shown escaped, so each key stays one row. */
function printable(text: string): string {
  return text.replace(/[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu, (c) => NAMED_ESCAPES[c] ?? `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}

const NAMED_ESCAPES: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

const iso = (at: number | null): string => (at ? new Date(at).toISOString() : 'never');

/** Account ids to emails, for the ACCOUNT column; an operator key (no account) shows as `operator`. */
type AccountEmails = ReadonlyMap<string, string>;

const accountOf = (key: StoredApiKey, emails: AccountEmails): string | null => (key.accountId === null ? null : (emails.get(key.accountId) ?? key.accountId));

export function formatKeysTable(keys: StoredApiKey[], now: number, emails: AccountEmails = new Map()): string {
  const header = ['ID', 'HINT', 'STATE', 'ACCOUNT', 'ADMIN', 'NAME', 'MODELS', 'EXPIRES', 'CREATED'];
  const rows = keys.map((key) => [
    key.id,
    printable(key.keyHint),
    keyState(key, now),
    printable(accountOf(key, emails) ?? 'operator'),
    key.admin ? 'yes' : 'no',
    printable(key.name),
    key.models ? printable(key.models.join(',')) : 'any',
    iso(key.expiresAt),
    iso(key.createdAt),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => [...row[column]].length)));
  const line = (cells: string[]): string =>
    cells.map((cell, column) => (column === cells.length - 1 ? cell : cell + ' '.repeat(widths[column] - [...cell].length))).join('  ');
  return [header, ...rows].map(line).join('\n');
}

export function keysAsJson(keys: StoredApiKey[], now: number, emails: AccountEmails = new Map()): string {
  return JSON.stringify(
    keys.map((key) => ({
      id: key.id,
      hint: key.keyHint,
      state: keyState(key, now),
      account: accountOf(key, emails),
      admin: key.admin,
      name: key.name,
      models: key.models,
      expiresAt: key.expiresAt ? new Date(key.expiresAt).toISOString() : null,
      revokedAt: key.revokedAt ? new Date(key.revokedAt).toISOString() : null,
      createdAt: new Date(key.createdAt).toISOString(),
    })),
    null,
    2,
  );
}
