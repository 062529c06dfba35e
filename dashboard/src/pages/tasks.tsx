import { useEffect, useState } from 'preact/hooks';
import { ErrorAlert } from '../components/alert.js';
import { Link } from '../components/link.js';
import { usePaged } from '../components/use-paged.js';
import { TableWrap } from '../components/table-wrap.js';
import { useTitle } from '../components/use-title.js';
import { formatDateTime, formatNusdAsUsd } from '../lib/format.js';
import { buildQuery } from '../lib/query.js';
import { BASE } from '../lib/routes.js';
import type { Task } from '../types.js';

const STATUSES = ['', 'queued', 'submitted', 'running', 'succeeded', 'failed', 'canceled'];
const FINISHED = new Set(['succeeded', 'failed', 'canceled']);
const REFRESH_MS = 3_000;

export function TasksPage() {
  useTitle('Tasks');
  const [filters, setFilters] = useState({ family: '', status: '', key: '' });
  const [applied, setApplied] = useState(filters);
  const tasks = usePaged<Task>('/tasks', buildQuery(applied));
  // While a listed task is unfinished, the first page is fetched again every few seconds.
  const unfinished = tasks.items.some((t) => !FINISHED.has(t.status));
  useEffect(() => {
    if (!unfinished || tasks.loading) return;
    const timer = setTimeout(tasks.reload, REFRESH_MS);
    return () => clearTimeout(timer);
  }, [unfinished, tasks.loading, tasks.items]);

  return (
    <>
      <h1>Tasks</h1>
      <form
        class="toolbar"
        aria-label="Task filters"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ ...filters });
        }}
      >
        <label>
          Family
          <input
            type="text"
            maxLength={100}
            placeholder="any"
            value={filters.family}
            onInput={(e) => setFilters({ ...filters, family: e.currentTarget.value.trim() })}
          />
        </label>
        <label>
          Status
          <select value={filters.status} onChange={(e) => setFilters({ ...filters, status: e.currentTarget.value })}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s || 'any'}
              </option>
            ))}
          </select>
        </label>
        <label>
          Key
          <input
            type="text"
            maxLength={200}
            placeholder="any"
            value={filters.key}
            onInput={(e) => setFilters({ ...filters, key: e.currentTarget.value.trim() })}
          />
        </label>
        <button type="submit">Apply filters</button>
      </form>
      <ErrorAlert error={tasks.error} />
      <TableWrap label="Tasks">
        <table data-testid="tasks-table">
          <caption>Asynchronous tasks (images, video), newest first</caption>
          <thead>
            <tr>
              <th scope="col">Task</th>
              <th scope="col">Family</th>
              <th scope="col">Model</th>
              <th scope="col">Status</th>
              <th scope="col">Created</th>
              <th scope="col">Finished</th>
              <th scope="col" class="num">
                Price
              </th>
            </tr>
          </thead>
          <tbody>
            {!tasks.loading && tasks.items.length === 0 && (
              <tr>
                <td colSpan={7}>No tasks match.</td>
              </tr>
            )}
            {tasks.items.map((t) => (
              <tr key={t.id}>
                <th scope="row">
                  <Link href={`${BASE}/tasks/${encodeURIComponent(t.id)}`}>
                    <code>{t.id}</code>
                  </Link>
                </th>
                <td>
                  {t.family} <span class="muted">{t.operation}</span>
                </td>
                <td>{t.model}</td>
                <td>
                  <span class={`badge status-${t.status}`}>{t.status}</span>
                  {t.progress !== null && t.progress !== undefined && !t.finishedAt && <span class="muted"> {Math.round(t.progress)}%</span>}
                </td>
                <td>{formatDateTime(t.createdAt)}</td>
                <td>{t.finishedAt ? formatDateTime(t.finishedAt) : '—'}</td>
                <td class="num">{formatNusdAsUsd(t.priceNusd)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {tasks.hasMore && (
        <button type="button" class="secondary" disabled={tasks.loading} onClick={tasks.more}>
          Load more
        </button>
      )}
    </>
  );
}
