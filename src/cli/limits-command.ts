/**
 * `gengate limits list|set|clear`: the limit rules of `docs/limits.md` from the command line,
 * as the admin API sets them (same checks, same cap, audited as the command line). `set` creates
 * the rule, or changes the limit of the subject's rule of that kind and model pattern.
 */
import type { GatewayConfig } from '../config/types.js';
import { checkLimitInput, RuleProblem } from '../limits/rule-validation.js';
import type { StoredLimitRule } from '../store/limit-rules-repository.js';
import { CONFIG_OPTION, parseCommandLine } from './parse-command-line.js';
import { type RuleStores, refusing, ruleTable, withRules } from './rules-store.js';
import { UsageError } from './usage.js';

type LoadConfig = (configPath: string | undefined) => GatewayConfig;

const SUBJECT_OPTIONS = { key: { type: 'string' }, account: { type: 'string' } } as const;

/** The scope and subject the options name: a key, an account (email or id), or neither (a model rule). */
async function subjectOf(stores: RuleStores, values: { key?: string; account?: string }): Promise<{ scope: 'key' | 'account' | 'model'; subject: string }> {
  if (values.key !== undefined && values.account !== undefined) throw new UsageError('name either --key or --account, not both');
  if (values.key !== undefined) return { scope: 'key', subject: values.key };
  if (values.account !== undefined) return { scope: 'account', subject: await stores.accountId(values.account) };
  return { scope: 'model', subject: '' };
}

function formatLimits(rules: readonly StoredLimitRule[]): string {
  if (rules.length === 0) return 'no limit rules: set one with `gengate limits set`';
  const rows = rules.map((rule) => [rule.id, rule.scope, rule.subject || '-', rule.model ?? '-', rule.kind, String(rule.limit)]);
  const header = ['ID', 'SCOPE', 'SUBJECT', 'MODEL', 'KIND', 'LIMIT'];
  return ruleTable(header, rows);
}

export async function limitsCommand(args: string[], loadConfig: LoadConfig): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'list') {
    const { values } = parseCommandLine('limits list', rest, { ...CONFIG_OPTION, ...SUBJECT_OPTIONS, json: { type: 'boolean' } }, { min: 0, max: 0 });
    await refusing(async () => {
      const rules = await withRules(loadConfig(values.config), async (stores) => {
        const filter = values.key !== undefined || values.account !== undefined ? await subjectOf(stores, values) : {};
        return stores.rules.listLimits(filter);
      });
      console.log(values.json ? JSON.stringify(rules, null, 2) : formatLimits(rules));
    });
    return;
  }
  if (action === 'set') {
    const { values } = parseCommandLine(
      'limits set',
      rest,
      { ...CONFIG_OPTION, ...SUBJECT_OPTIONS, model: { type: 'string' }, kind: { type: 'string' }, limit: { type: 'string' } },
      { min: 0, max: 0 },
    );
    if (values.kind === undefined || values.limit === undefined) throw new UsageError('"gengate limits set" needs --kind and --limit');
    if (!/^\d+$/.test(values.limit)) throw new UsageError(`--limit must be a whole number, got "${values.limit}"`);
    const limit = Number(values.limit);
    await refusing(async () => {
      const { rule, created } = await withRules(loadConfig(values.config), async (stores) => {
        const input = await checkLimitInput({ ...(await subjectOf(stores, values)), model: values.model, kind: values.kind, limit }, stores.lookup);
        const same = (await stores.rules.listLimits({ scope: input.scope, subject: input.subject })).find(
          (rule) => rule.kind === input.kind && rule.model === input.model,
        );
        if (same) {
          const changed = (await stores.rules.changeLimit(same.id, input.limit, Date.now())) as StoredLimitRule;
          await stores.audit('limit.change', same.id, { scope: same.scope, subject: same.subject, kind: same.kind, from: same.limit, to: input.limit });
          return { rule: changed, created: false };
        }
        const rule = await stores.rules.createLimit(input, Date.now());
        await stores.audit('limit.create', rule.id, { scope: rule.scope, subject: rule.subject, model: rule.model, kind: rule.kind, limit: rule.limit });
        return { rule, created: true };
      });
      console.log(
        `${created ? 'created' : 'changed'} ${rule.id}: ${rule.scope}${rule.subject ? ` ${rule.subject}` : ''}${rule.model ? ` (${rule.model})` : ''} ${rule.kind} ${rule.limit}`,
      );
    });
    return;
  }
  if (action === 'clear') {
    const { values, positionals } = parseCommandLine('limits clear', rest, CONFIG_OPTION, { min: 1, max: 1, names: 'a RULE_ID (see `gengate limits list`)' });
    const id = positionals[0];
    await refusing(async () => {
      const removed = await withRules(loadConfig(values.config), async (stores) => {
        const rule = await stores.rules.removeLimit(id);
        if (rule)
          await stores.audit('limit.remove', rule.id, { scope: rule.scope, subject: rule.subject, model: rule.model, kind: rule.kind, limit: rule.limit });
        return rule;
      });
      if (!removed) throw new RuleProblem('subject', `no limit rule ${id} (see \`gengate limits list\`)`);
      console.log(`cleared ${id}`);
    });
    return;
  }
  throw new UsageError(action ? `unknown limits action "${action}": use list, set or clear` : '"gengate limits" needs an action: list, set or clear');
}
