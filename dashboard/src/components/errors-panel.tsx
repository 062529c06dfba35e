/**
 * The usage page's "Errors" panel: failed calls and tasks counted by error type — whose fault
 * the failure was: `client.*`, `policy.*`, `upstream.*` or `gateway.*` (`GET /usage/errors`) —
 * for the page's period and filters, then the most recent failures of the type chosen
 * (`GET /usage/records?errorType=…`). Like the Refusals panel it covers whole UTC days, at most
 * the last 31 of the period.
 */
import { useEffect, useState } from 'preact/hooks';
import { get } from '../api.js';
import { formatDateTime, formatInt, formatMs } from '../lib/format.js';
import { buildQuery, startOfUtcDay } from '../lib/query.js';
import type { ErrorsReport, Page, UsageRecord } from '../types.js';
import { TableWrap } from './table-wrap.js';

const DAY_MS = 86_400_000;
const MAX_DAYS = 31;
const RECENT = 20;

interface Filters {
  key: string;
  account: string;
  model: string;
  channel: string;
  surface: string;
}

export function ErrorsPanel(props: { from: number; to: number; filters: Filters; asked: number }) {
  const [report, setReport] = useState<ErrorsReport | null>(null);
  const [failed, setFailed] = useState(false);
  const [chosen, setChosen] = useState('');
  const [records, setRecords] = useState<UsageRecord[] | null>(null);
  const { key, account, model, channel, surface } = props.filters;
  const to = startOfUtcDay(props.to) + DAY_MS;
  const from = Math.max(startOfUtcDay(props.from), to - MAX_DAYS * DAY_MS);
  const clipped = from > startOfUtcDay(props.from);
  const query = buildQuery({ from, to, keyId: key, accountId: account, model, channel });
  const recordsQuery = chosen ? buildQuery({ limit: RECENT, errorType: chosen, key, account, model, channel, surface }) : null;

  useEffect(() => {
    const abort = new AbortController();
    setFailed(false);
    get<ErrorsReport>(`/usage/errors${query}`, { signal: abort.signal }).then(setReport, () => {
      if (!abort.signal.aborted) setFailed(true);
    });
    return () => abort.abort();
  }, [query, props.asked]);

  useEffect(() => {
    setRecords(null);
    if (!recordsQuery) return;
    const abort = new AbortController();
    get<Page<UsageRecord>>(`/usage/records${recordsQuery}`, { signal: abort.signal }).then(
      (page) => setRecords(page.data),
      () => {
        if (!abort.signal.aborted) setFailed(true);
      },
    );
    return () => abort.abort();
  }, [recordsQuery, props.asked]);

  return (
    <section class="panel" aria-labelledby="errors-title" data-testid="usage-errors">
      <h2 id="errors-title">Errors by type{clipped ? ` (last ${MAX_DAYS} days of the period)` : ''}</h2>
      {failed && <p>Errors could not be loaded.</p>}
      {report && report.errors.length === 0 && <p>No failed calls or tasks.</p>}
      {report && report.errors.length > 0 && (
        <>
          <ul class="refusals">
            {report.errors.map((row) => (
              <li key={row.errorType}>
                <code>{row.errorType}</code>: <strong>{formatInt(row.count)}</strong>
              </li>
            ))}
          </ul>
          <label>
            Error type
            <select value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
              <option value="">Choose one to list its recent failures</option>
              {report.errors.map((row) => (
                <option key={row.errorType} value={row.errorType}>
                  {row.errorType}
                </option>
              ))}
            </select>
          </label>
        </>
      )}
      {records && <FailuresTable records={records} errorType={chosen} />}
    </section>
  );
}

function FailuresTable(props: { records: UsageRecord[]; errorType: string }) {
  return (
    <TableWrap label="Recent failures">
      <table data-testid="usage-failures">
        <caption>Most recent failures of type {props.errorType}</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Model</th>
            <th scope="col">Channel</th>
            <th scope="col">Outcome</th>
            <th scope="col">Error type</th>
            <th scope="col" class="num">
              Latency
            </th>
          </tr>
        </thead>
        <tbody>
          {props.records.length === 0 && (
            <tr>
              <td colSpan={6}>None with these filters.</td>
            </tr>
          )}
          {props.records.map((record) => (
            <tr key={record.id}>
              <td>{formatDateTime(record.createdAt)}</td>
              <td>{record.model}</td>
              <td>{record.channel || '—'}</td>
              <td>{record.outcome}</td>
              <td>
                <code>{record.errorType ?? '—'}</code>
              </td>
              <td class="num">{formatMs(record.latencyMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
