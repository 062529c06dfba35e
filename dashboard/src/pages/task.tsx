import { useEffect, useState } from 'preact/hooks';
import { api, get } from '../api.js';
import { ErrorAlert, messageOf } from '../components/alert.js';
import { Link } from '../components/link.js';
import { TableWrap } from '../components/table-wrap.js';
import { useTitle } from '../components/use-title.js';
import { formatDateTime, formatNusdAsUsd } from '../lib/format.js';
import { BASE } from '../lib/routes.js';
import type { TaskDetail } from '../types.js';

const FINISHED = new Set(['succeeded', 'failed', 'canceled']);
const REFRESH_MS = 2_000;

function describe(detail: unknown): string {
  if (detail === undefined || detail === null) return '';
  const text = typeof detail === 'string' ? detail : JSON.stringify(detail);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

export function TaskPage(props: { id: string }) {
  useTitle(`Task ${props.id}`);
  const [detail, setDetail] = useState<TaskDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    get<TaskDetail>(`/tasks/${encodeURIComponent(props.id)}`).then(setDetail, (e) => setError(messageOf(e)));
  }, [props.id]);

  // An unfinished task is looked at again every few seconds, until it ends.
  useEffect(() => {
    if (!detail || FINISHED.has(detail.task.status)) return;
    const timer = setTimeout(() => {
      get<TaskDetail>(`/tasks/${encodeURIComponent(props.id)}`).then(setDetail, (e) => setError(messageOf(e)));
    }, REFRESH_MS);
    return () => clearTimeout(timer);
  }, [detail, props.id]);

  const cancel = async () => {
    setBusy(true);
    setError(null);
    try {
      const { task } = await api<{ task: TaskDetail['task'] }>('POST', `/tasks/${encodeURIComponent(props.id)}/cancel`);
      setDetail((d) => (d ? { ...d, task: { ...d.task, ...task } } : d));
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  const task = detail?.task;
  return (
    <>
      <p>
        <Link href={`${BASE}/tasks`}>← All tasks</Link>
      </p>
      <h1>
        Task <code>{props.id}</code>
      </h1>
      <ErrorAlert error={error} />
      {task && (
        <>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <span class={`badge status-${task.status}`} data-testid="task-status">
                {task.status}
              </span>
              {task.progress !== null && !task.finishedAt && ` ${Math.round(task.progress)}%`}
            </dd>
            <dt>Family / operation</dt>
            <dd>
              {task.family} / {task.operation}
            </dd>
            <dt>Model</dt>
            <dd>{task.model}</dd>
            <dt>Created</dt>
            <dd>{formatDateTime(task.createdAt)}</dd>
            <dt>Finished</dt>
            <dd>{task.finishedAt ? formatDateTime(task.finishedAt) : '—'}</dd>
            <dt>Price</dt>
            <dd>{formatNusdAsUsd(task.priceNusd)}</dd>
            {task.errorCode && (
              <>
                <dt>Error</dt>
                <dd>
                  <code>{task.errorCode}</code> {task.errorMessage}
                </dd>
              </>
            )}
          </dl>
          {!FINISHED.has(task.status) && !task.finishedAt && (
            <button type="button" class="danger" disabled={busy} onClick={cancel}>
              Cancel task
            </button>
          )}

          <h2>Result</h2>
          {task.outputs?.length ? (
            <div class="previews" data-testid="task-preview">
              {task.outputs.map((o, i) =>
                o.kind === 'video' ? (
                  // biome-ignore lint/a11y/useMediaCaption: generated videos have no captions to offer
                  <video key={o.url} controls preload="metadata" src={o.url} aria-label={`Output ${i + 1} (video)`} />
                ) : (
                  <a key={o.url} href={o.url} target="_blank" rel="noreferrer noopener">
                    <img src={o.url} alt={`Output ${i + 1} of task ${task.id}`} loading="lazy" />
                  </a>
                ),
              )}
            </div>
          ) : (
            <p class="muted">No output yet.</p>
          )}

          <h2>Timeline</h2>
          <ol class="timeline">
            {detail.timeline.map((t, i) => (
              <li key={`${t.at}-${i}`}>
                <time>{formatDateTime(t.at)}</time> <strong>{t.event}</strong> <span class="muted">{describe(t.detail)}</span>
              </li>
            ))}
          </ol>

          <h2>Ledger</h2>
          <TableWrap label="Ledger entries">
            <table>
              <caption class="visually-hidden">Ledger entries</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Kind</th>
                  <th scope="col" class="num">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {detail.ledger.length === 0 && (
                  <tr>
                    <td colSpan={3}>No entries.</td>
                  </tr>
                )}
                {detail.ledger.map((l, i) => (
                  <tr key={`${l.at}-${i}`}>
                    <td>{formatDateTime(l.at)}</td>
                    <th scope="row">{l.kind}</th>
                    <td class="num">{formatNusdAsUsd(l.amountNusd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>

          <h2>Webhook deliveries</h2>
          <TableWrap label="Webhook deliveries">
            <table>
              <caption class="visually-hidden">Webhook deliveries</caption>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Status</th>
                  <th scope="col" class="num">
                    Attempts
                  </th>
                  <th scope="col">Last error</th>
                  <th scope="col">Delivered</th>
                </tr>
              </thead>
              <tbody>
                {detail.webhooks.length === 0 && (
                  <tr>
                    <td colSpan={5}>No webhooks.</td>
                  </tr>
                )}
                {detail.webhooks.map((w) => (
                  <tr key={w.id}>
                    <th scope="row" class="wrap">
                      {w.url}
                    </th>
                    <td>{w.status}</td>
                    <td class="num">{w.attempts}</td>
                    <td class="wrap">{w.lastError ?? '—'}</td>
                    <td>{w.deliveredAt ? formatDateTime(w.deliveredAt) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        </>
      )}
    </>
  );
}
