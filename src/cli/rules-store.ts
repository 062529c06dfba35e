/**
 * What `gengate limits` and `gengate budgets` work on: the rules repository (capped like the admin
 * API's), the subject checks, the audit log (entries by the command line), and the account an
 * `--account` option names (an email or an id).
 */
import { cliAudit } from './cli-audit.js';
import { changeNotifier } from '../store/open-change-notifier.js';
import type { GatewayConfig } from '../config/types.js';
import { MAX_RULES, RuleProblem, type SubjectLookup } from '../limits/rule-validation.js';
import { AccountsRepository } from '../store/accounts-repository.js';
import { ApiKeysRepository } from '../store/api-keys-repository.js';
import { AuditRepository } from '../store/audit-repository.js';
import { DuplicateRuleError, LimitRulesRepository, RuleCountError } from '../store/limit-rules-repository.js';
import { openStore } from '../store/open-store.js';

export interface RuleStores {
  rules: LimitRulesRepository;
  lookup: SubjectLookup;
  /** The id of the account an `--account` value names (an email or an id); a RuleProblem when none. */
  accountId(value: string): Promise<string>;
  audit(action: string, target: string, details: Record<string, unknown>): Promise<void>;
}

export async function withRules<T>(config: GatewayConfig, work: (stores: RuleStores) => Promise<T>): Promise<T> {
  const store = await openStore(config.databaseUrl);
  // Running gateways re-read the rules when told (a notice), or at their next safety poll.
  const notifier = changeNotifier(config, store);
  try {
    const keys = new ApiKeysRepository(store.db);
    const accounts = new AccountsRepository(store.db);
    const auditLog = new AuditRepository(store.db);
    const result = await work({
      rules: new LimitRulesRepository(store.db, MAX_RULES),
      lookup: {
        keyExists: async (id) => (await keys.findById(id)) !== undefined,
        accountExists: async (id) => (await accounts.findById(id)) !== undefined,
      },
      async accountId(value) {
        const account = value.includes('@') ? await accounts.findByEmail(value) : await accounts.findById(value);
        if (!account) throw new RuleProblem('account', `no account ${value}`, 'unknown_subject');
        return account.id;
      },
      audit: cliAudit(auditLog),
    });
    await notifier?.send('limits');
    return result;
  } finally {
    await notifier?.close();
    await store.close();
  }
}

/** A refusal the command prints on one line (exit 1); anything else is thrown on. */
export function ruleRefusal(error: unknown): string | undefined {
  if (error instanceof RuleProblem)
    return error.field === 'subject' || error.field === 'account' ? error.message : `--${optionOf(error.field)}: ${error.message}`;
  if (error instanceof DuplicateRuleError) return `a rule for the same thing exists: ${error.existingId}`;
  if (error instanceof RuleCountError) return `at most ${error.max} limit and budget rules may exist; clear some first`;
  return undefined;
}

const OPTION_OF_FIELD: Record<string, string> = { limitUsd: 'limit', softUsd: 'soft', timeZone: 'time-zone', model: 'model' };

function optionOf(field: string): string {
  return OPTION_OF_FIELD[field] ?? field;
}

/** Rows under a header, in columns two spaces apart. */
export function ruleTable(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** Runs `work`; a rule refusal is one line on stderr and exit code 1. */
export async function refusing(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    const refusal = ruleRefusal(error);
    if (refusal === undefined) throw error;
    console.error(`gengate: ${refusal}`);
    process.exitCode = 1;
  }
}
