/**
 * Setting limits and budgets as an operator does, through the admin API `docs/limits.md`
 * documents (`POST /admin/v1/limits`, `POST /admin/v1/budgets`, `GET /admin/v1/limits/standing`),
 * with the master key; and waiting until every replica holds a new rule (a change applies on
 * every replica within a second) before a test leans on it.
 */
import { waitUntil } from '../../helpers/webhook-tenants.js';
import { MASTER_KEY } from '../gateway-process.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Answer = any;

export interface LimitSpec {
  scope: 'key' | 'account' | 'model';
  subject: string;
  model?: string;
  kind: string;
  limit: number;
}

export interface BudgetSpec {
  scope: 'key' | 'account';
  subject: string;
  period: 'day' | 'week' | 'month' | 'lifetime';
  limitUsd: string | number;
}

async function adminPost(gatewayUrl: string, path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${gatewayUrl}/admin/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${MASTER_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 201 && response.status !== 200) throw new Error(`POST /admin/v1${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** The created rule's id, whether the answer is the rule itself or wraps it (`{limit}`, `{budget}`, `{rule}`). */
function ruleId(answer: Answer, wrapper: string): string {
  const id = answer?.id ?? answer?.[wrapper]?.id ?? answer?.rule?.id;
  if (typeof id !== 'string') throw new Error(`no rule id in ${JSON.stringify(answer)}`);
  return id;
}

export async function setLimit(gatewayUrl: string, spec: LimitSpec): Promise<string> {
  return ruleId(await adminPost(gatewayUrl, '/limits', spec), 'limit');
}

export async function setBudget(gatewayUrl: string, spec: BudgetSpec): Promise<string> {
  return ruleId(await adminPost(gatewayUrl, '/budgets', spec), 'budget');
}

/** `GET /admin/v1/limits/standing?keyId=` on one replica. */
export async function standing(gatewayUrl: string, keyId: string): Promise<Answer> {
  const response = await fetch(`${gatewayUrl}/admin/v1/limits/standing?keyId=${encodeURIComponent(keyId)}`, {
    headers: { authorization: `Bearer ${MASTER_KEY}` },
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET /admin/v1/limits/standing: ${response.status} ${text}`);
  return JSON.parse(text);
}

/** The settled spend `standing` reports for one budget (`budgets[]` entry with that id; `spentNusd`). */
export function spentNusd(report: Answer, budgetId: string): number {
  const entries: Answer[] = Array.isArray(report?.budgets) ? report.budgets : [];
  const entry = entries.find((standing) => standing?.budget?.id === budgetId);
  if (!entry || typeof entry.spentNusd !== 'number') throw new Error(`budget ${budgetId} with spentNusd not in standing: ${JSON.stringify(report)}`);
  return entry.spentNusd;
}

/**
 * Waits until every replica reports every rule of `ruleIds` in the key's standing, and at least
 * the documented second has passed since `since` (when the key and the rules were made: keys,
 * too, reach every replica within a second).
 */
export async function untilReplicasHold(gatewayUrls: readonly string[], keyId: string, ruleIds: readonly string[], since: number): Promise<void> {
  for (const url of gatewayUrls) {
    await waitUntil(
      async () => {
        const text = JSON.stringify(await standing(url, keyId));
        return ruleIds.every((id) => text.includes(id));
      },
      5_000,
      `the rules reach ${url}`,
    );
  }
  const settle = since + 1_200 - Date.now();
  if (settle > 0) await new Promise((resolve) => setTimeout(resolve, settle));
}
