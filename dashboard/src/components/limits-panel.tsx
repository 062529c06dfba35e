/**
 * The limits and budgets that apply to one key or account, as `GET /limits/standing` reports
 * them: each limit with what is used, each budget with a spend-against-cap bar; admins also set
 * and clear the subject's own rules here (members only read). Numbers are absent (—) while no
 * counter store answers.
 */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { formatDateTime, formatInt } from '../lib/format.js';
import type { LimitStanding } from '../types.js';
import { ErrorAlert, messageOf } from './alert.js';

const KINDS = ['requests_per_minute', 'tokens_per_minute', 'concurrent_requests', 'task_submits_per_minute', 'unfinished_tasks'];
const PERIODS = ['day', 'week', 'month', 'lifetime'];
const NUSD_PER_USD = 1_000_000_000;

const usd = (nusd: number | null) => (nusd === null ? '—' : `$${(nusd / NUSD_PER_USD).toFixed(2)}`);

export function LimitsPanel(props: { scope: 'key' | 'account'; subject: string; name: string; isAdmin: boolean }) {
  const [standing, setStanding] = useState<LimitStanding | null>(null);
  const [error, setError] = useState<string | null>(null);
  const query = `${props.scope === 'key' ? 'keyId' : 'accountId'}=${encodeURIComponent(props.subject)}`;
  const load = () =>
    api<LimitStanding>('GET', `/limits/standing?${query}`)
      .then(setStanding)
      .catch((e: unknown) => setError(messageOf(e)));
  useEffect(() => {
    void load();
  }, [query]);

  const act = async (method: string, path: string, body?: unknown) => {
    setError(null);
    try {
      await api(method, path, body);
      await load();
      return true;
    } catch (e) {
      setError(messageOf(e));
      return false;
    }
  };
  const own = (rule: { scope: string; subject: string }) => rule.scope === props.scope && rule.subject === props.subject;

  return (
    <section class="limits-panel" aria-label={`Limits and budgets of ${props.name}`} data-testid="limits-panel">
      <ErrorAlert error={error} testId="limits-error" />
      <h3>Budgets</h3>
      {standing && standing.budgets.length === 0 && <p class="muted">No budget.</p>}
      {standing?.budgets.map((entry) => {
        const spent = entry.spentNusd ?? 0;
        return (
          <div class="budget" key={entry.budget.id} data-testid={`budget-${entry.budget.period}`}>
            <div>
              <strong>{entry.label}</strong>: {usd(entry.spentNusd)} of ${entry.budget.limitUsd}
              {entry.budget.softUsd !== null && <span class="muted"> (warns past ${entry.budget.softUsd})</span>}
              {entry.periodEnd !== null && <span class="muted"> · resets {formatDateTime(entry.periodEnd)}</span>}
            </div>
            <meter
              min={0}
              max={entry.budget.limitNusd}
              value={Math.min(spent, entry.budget.limitNusd)}
              high={entry.budget.softNusd ?? undefined}
              aria-label={`${entry.label}: spent ${usd(entry.spentNusd)} of $${entry.budget.limitUsd}`}
            />
            {props.isAdmin && own(entry.budget) && (
              <button type="button" class="secondary" onClick={() => act('DELETE', `/budgets/${entry.budget.id}`)}>
                Clear<span class="visually-hidden"> {entry.label}</span>
              </button>
            )}
          </div>
        );
      })}
      <h3>Limits</h3>
      {standing && standing.limits.length === 0 && <p class="muted">No limit.</p>}
      {standing && standing.limits.length > 0 && (
        <table data-testid="limits-table">
          <caption class="visually-hidden">Limits that apply to {props.name}</caption>
          <thead>
            <tr>
              <th scope="col">Limit</th>
              <th scope="col">Models</th>
              <th scope="col">Allowed</th>
              <th scope="col">Used</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {standing.limits.map((entry) => (
              <tr key={entry.rule.id}>
                <th scope="row">{entry.label}</th>
                <td>{entry.rule.model ?? 'all'}</td>
                <td>{formatInt(entry.rule.limit)}</td>
                <td>{formatInt(entry.used)}</td>
                <td>
                  {props.isAdmin && own(entry.rule) && (
                    <button type="button" class="secondary" onClick={() => act('DELETE', `/limits/${entry.rule.id}`)}>
                      Clear<span class="visually-hidden"> {entry.label}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {props.isAdmin && (
        <>
          <BudgetForm onSubmit={(body) => act('POST', '/budgets', { scope: props.scope, subject: props.subject, ...body })} />
          <LimitForm onSubmit={(body) => act('POST', '/limits', { scope: props.scope, subject: props.subject, ...body })} />
        </>
      )}
    </section>
  );
}

function BudgetForm(props: { onSubmit: (body: object) => Promise<boolean> }) {
  const [period, setPeriod] = useState('month');
  const [limitUsd, setLimitUsd] = useState('');
  const [softUsd, setSoftUsd] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await props.onSubmit({ period, limitUsd: limitUsd.trim(), ...(softUsd.trim() ? { softUsd: softUsd.trim() } : {}) })) {
      setLimitUsd('');
      setSoftUsd('');
    }
  };
  return (
    <form class="panel" onSubmit={submit} aria-label="Set a budget">
      <div class="fields">
        <label>
          Budget period
          <select value={period} onChange={(e) => setPeriod(e.currentTarget.value)}>
            {PERIODS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label>
          Budget in USD
          <input type="text" inputMode="decimal" required maxLength={20} value={limitUsd} onInput={(e) => setLimitUsd(e.currentTarget.value)} />
        </label>
        <label>
          Warn past USD <span class="muted">(optional)</span>
          <input type="text" inputMode="decimal" maxLength={20} value={softUsd} onInput={(e) => setSoftUsd(e.currentTarget.value)} />
        </label>
      </div>
      <button type="submit">Set budget</button>
    </form>
  );
}

function LimitForm(props: { onSubmit: (body: object) => Promise<boolean> }) {
  const [kind, setKind] = useState(KINDS[0]);
  const [limit, setLimit] = useState('');
  const [model, setModel] = useState('');
  const submit = async (event: Event) => {
    event.preventDefault();
    if (await props.onSubmit({ kind, limit: Number(limit), ...(model.trim() ? { model: model.trim() } : {}) })) {
      setLimit('');
      setModel('');
    }
  };
  return (
    <form class="panel" onSubmit={submit} aria-label="Set a limit">
      <div class="fields">
        <label>
          Limit kind
          <select value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
            {KINDS.map((k) => (
              <option key={k} value={k}>
                {k.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </label>
        <label>
          Allowed
          <input type="number" min={1} max={1_000_000_000} step={1} required value={limit} onInput={(e) => setLimit(e.currentTarget.value)} />
        </label>
        <label>
          For models <span class="muted">(optional pattern)</span>
          <input type="text" maxLength={200} value={model} onInput={(e) => setModel(e.currentTarget.value)} />
        </label>
      </div>
      <button type="submit">Set limit</button>
    </form>
  );
}
