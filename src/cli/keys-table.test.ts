import { describe, expect, it } from 'vitest';
import type { StoredApiKey } from '../store/api-keys-repository.js';
import { formatKeysTable, keysAsJson } from './keys-table.js';

const NOW = Date.UTC(2026, 5, 15);

function key(overrides: Partial<StoredApiKey>): StoredApiKey {
  return {
    id: 'abcdefghij',
    name: 'ci',
    keyHash: 'aa'.repeat(32),
    keyHint: 'gg-abcd…wxyz',
    models: null,
    expiresAt: null,
    revokedAt: null,
    createdAt: Date.UTC(2026, 0, 2, 3, 4, 5),
    accountId: null,
    admin: false,
    ...overrides,
  };
}

describe('keys list', () => {
  it('finding 14: prints a header row and aligned columns', () => {
    const table = formatKeysTable(
      [
        key({}),
        key({ id: 'k2', name: 'a much longer name', models: ['textmodel-b-*', 'textmodel-a-*'], expiresAt: Date.UTC(2027, 0, 1) }),
        key({ id: 'k3', name: 'old', revokedAt: NOW - 1 }),
        key({ id: 'k4', name: 'lapsed', expiresAt: NOW - 1, accountId: 'acc-1', admin: true }),
      ],
      NOW,
      new Map([['acc-1', 'ops@example.com']]),
    ).split('\n');
    expect(table).toHaveLength(5);
    expect(table[0].split(/\s+/)).toEqual(['ID', 'HINT', 'STATE', 'ACCOUNT', 'ADMIN', 'NAME', 'MODELS', 'EXPIRES', 'CREATED']);
    // Every column starts at the same place on every row.
    for (const title of ['STATE', 'ACCOUNT', 'ADMIN', 'NAME', 'MODELS', 'EXPIRES', 'CREATED']) {
      const at = table[0].indexOf(title);
      for (const row of table.slice(1)) expect(row[at - 1], `${title} in ${row}`).toBe(' ');
      for (const row of table.slice(1)) expect(row[at], `${title} in ${row}`).not.toBe(' ');
    }
    expect(table[2]).toContain('active   operator         no     a much longer name  textmodel-b-*,textmodel-a-*  2027-01-01T00:00:00.000Z');
    expect(table[3]).toContain('revoked');
    expect(table[4]).toContain('expired  ops@example.com  yes    lapsed');
  });

  it('finding 14: a stored name with a tab or newline stays on its own row, escaped', () => {
    const table = formatKeysTable([key({ name: 'two\tparts\nand a line\u202E' })], NOW).split('\n');
    expect(table).toHaveLength(2);
    expect(table[1]).toContain('two\\tparts\\nand a line\\u202e');
  });

  it('--json gives every field, dates in ISO 8601', () => {
    expect(JSON.parse(keysAsJson([key({ models: ['x*'], expiresAt: Date.UTC(2027, 0, 1) })], NOW))).toEqual([
      {
        id: 'abcdefghij',
        hint: 'gg-abcd…wxyz',
        state: 'active',
        account: null,
        admin: false,
        name: 'ci',
        models: ['x*'],
        expiresAt: '2027-01-01T00:00:00.000Z',
        revokedAt: null,
        createdAt: '2026-01-02T03:04:05.000Z',
      },
    ]);
  });
});
