import { useState } from 'preact/hooks';
import { ErrorAlert } from '../components/alert.js';
import { usePaged } from '../components/use-paged.js';
import { TableWrap } from '../components/table-wrap.js';
import { useTitle } from '../components/use-title.js';
import { formatDateTime } from '../lib/format.js';
import { buildQuery } from '../lib/query.js';
import type { AuditEntry } from '../types.js';

function details(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

export function AuditPage() {
  useTitle('Audit log');
  const [filters, setFilters] = useState({ action: '', actor: '' });
  const [applied, setApplied] = useState(filters);
  const log = usePaged<AuditEntry>('/audit', buildQuery(applied));

  return (
    <>
      <h1>Audit log</h1>
      <form
        class="toolbar"
        aria-label="Audit filters"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ ...filters });
        }}
      >
        <label>
          Action
          <input
            type="text"
            maxLength={100}
            placeholder="any"
            value={filters.action}
            onInput={(e) => setFilters({ ...filters, action: e.currentTarget.value.trim() })}
          />
        </label>
        <label>
          Actor
          <input
            type="text"
            maxLength={200}
            placeholder="any"
            value={filters.actor}
            onInput={(e) => setFilters({ ...filters, actor: e.currentTarget.value.trim() })}
          />
        </label>
        <button type="submit">Apply filters</button>
      </form>
      <ErrorAlert error={log.error} />
      <TableWrap label="Audit log">
        <table data-testid="audit-table">
          <caption>Every change made through the admin API, newest first</caption>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">Action</th>
              <th scope="col">Target</th>
              <th scope="col">Details</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {!log.loading && log.items.length === 0 && (
              <tr>
                <td colSpan={6}>Nothing recorded.</td>
              </tr>
            )}
            {log.items.map((entry) => (
              <tr key={entry.id}>
                <th scope="row">{formatDateTime(entry.at)}</th>
                <td>
                  {entry.actor.label} <span class="muted">({entry.actor.kind})</span>
                </td>
                <td>
                  <code>{entry.action}</code>
                </td>
                <td class="wrap">{entry.target ?? '—'}</td>
                <td class="wrap">
                  <code>{details(entry.details)}</code>
                </td>
                <td>{entry.ip ?? '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {log.hasMore && (
        <button type="button" class="secondary" disabled={log.loading} onClick={log.more}>
          Load more
        </button>
      )}
    </>
  );
}
