/**
 * The usage page's "Refusals" panel: calls refused by a rate limit or a budget, counted by the
 * limit that refused them (`GET /usage/refusals`), for the page's period and key/account filters.
 * Like the usage report it covers whole UTC days. The server counts at most 31 days of raw rows, so a longer period shows its last 31 days and
 * says so.
 */
import { useEffect, useState } from 'preact/hooks';
import { get } from '../api.js';
import { formatInt } from '../lib/format.js';
import { buildQuery, startOfUtcDay } from '../lib/query.js';
import type { RefusalsReport } from '../types.js';

const DAY_MS = 86_400_000;
const MAX_DAYS = 31;

export function RefusalsPanel(props: { from: number; to: number; keyId: string; accountId: string; asked: number }) {
  const [report, setReport] = useState<RefusalsReport | null>(null);
  const [failed, setFailed] = useState(false);
  // Whole UTC days, as the usage report counts them: the period's last day runs to its end (the
  // page's "now" is when it opened), and the route's window ends exclusively.
  const to = startOfUtcDay(props.to) + DAY_MS;
  const from = Math.max(startOfUtcDay(props.from), to - MAX_DAYS * DAY_MS);
  const clipped = from > startOfUtcDay(props.from);
  const query = buildQuery({ from, to, keyId: props.keyId, accountId: props.accountId });

  useEffect(() => {
    const abort = new AbortController();
    setFailed(false);
    get<RefusalsReport>(`/usage/refusals${query}`, { signal: abort.signal }).then(setReport, () => {
      if (!abort.signal.aborted) setFailed(true);
    });
    return () => abort.abort();
  }, [query, props.asked]);

  return (
    <section class="panel" aria-labelledby="refusals-title" data-testid="usage-refusals">
      <h2 id="refusals-title">Refusals{clipped ? ` (last ${MAX_DAYS} days of the period)` : ''}</h2>
      {failed && <p>Refusals could not be loaded.</p>}
      {report && report.refusals.length === 0 && <p>No calls refused by a limit or budget.</p>}
      {report && report.refusals.length > 0 && (
        <ul class="refusals">
          {report.refusals.map((row) => (
            <li key={`${row.reason}\u0000${row.outcome}`}>
              <span>{row.reason}</span>: <strong>{formatInt(row.count)}</strong>
              {row.outcome === 'insufficient_quota' ? ' (budget)' : ''}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
