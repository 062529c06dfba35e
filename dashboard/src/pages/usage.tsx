import { useEffect, useMemo, useState } from 'preact/hooks';
import { API, get } from '../api.js';
import { ErrorAlert, messageOf } from '../components/alert.js';
import { ErrorsPanel } from '../components/errors-panel.js';
import { RefusalsPanel } from '../components/refusals-panel.js';
import { UsageChart } from '../components/usage-chart.js';
import { TableWrap } from '../components/table-wrap.js';
import { useTitle } from '../components/use-title.js';
import { formatInt, formatMs, formatNusdAsUsd } from '../lib/format.js';
import { buildQuery, dayRange, formatDateInput, lastDays } from '../lib/query.js';
import { dailySeries } from '../lib/usage-series.js';
import { useSession } from '../session.js';
import type { UsageReport, UsageRow } from '../types.js';

const GROUPS = ['day', 'key', 'account', 'model', 'channel', 'surface'] as const;
type Preset = '7' | '30' | '90' | 'custom';

export function UsagePage() {
  useTitle('Usage');
  const { isAdmin } = useSession();
  const [preset, setPreset] = useState<Preset>('30');
  const [now] = useState(() => Date.now());
  const [customFrom, setCustomFrom] = useState(() => formatDateInput(lastDays(30, now).from));
  const [customTo, setCustomTo] = useState(() => formatDateInput(now));
  const [groupBy, setGroupBy] = useState<(typeof GROUPS)[number]>('day');
  const [filters, setFilters] = useState({ key: '', account: '', model: '', channel: '', surface: '' });
  const [applied, setApplied] = useState(filters);
  // Bumped by "Apply filters", so the same filters fetch again (the numbers may have moved on).
  const [asked, setAsked] = useState(0);
  const [report, setReport] = useState<UsageReport | null>(null);
  const [dailyOther, setDailyOther] = useState<UsageReport | null>(null);
  const [error, setError] = useState<string | null>(null);

  const range = preset === 'custom' ? dayRange(customFrom, customTo) : lastDays(Number(preset), now);
  const query = range ? buildQuery({ from: range.from, to: range.to, groupBy, ...applied }) : null;
  const dayQuery = range ? buildQuery({ from: range.from, to: range.to, groupBy: 'day', ...applied }) : null;

  useEffect(() => {
    if (!query) {
      setError('Choose a start date on or before the end date.');
      return;
    }
    setError(null);
    const abort = new AbortController();
    get<UsageReport>(`/usage${query}`, { signal: abort.signal }).then(setReport, (e) => {
      if (!abort.signal.aborted) setError(messageOf(e));
    });
    return () => abort.abort();
  }, [query, asked]);

  // The chart is always per day, whatever the table groups by.
  useEffect(() => {
    if (!dayQuery || groupBy === 'day') return;
    const abort = new AbortController();
    get<UsageReport>(`/usage${dayQuery}`, { signal: abort.signal }).then(setDailyOther, () => {});
    return () => abort.abort();
  }, [dayQuery, groupBy, asked]);

  const daily = groupBy === 'day' ? report : dailyOther;
  const from = range?.from ?? 0;
  const to = range?.to ?? 0;
  const series = useMemo(() => (daily ? dailySeries(daily.rows, from, to) : null), [daily, from, to]);

  const filterFields: (keyof typeof filters)[] = isAdmin ? ['key', 'account', 'model', 'channel', 'surface'] : ['key', 'model', 'surface'];

  return (
    <>
      <h1>Usage</h1>
      <form
        class="toolbar"
        aria-label="Usage filters"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ ...filters });
          setAsked((n) => n + 1);
        }}
      >
        <label>
          Period
          <select value={preset} onChange={(e) => setPreset(e.currentTarget.value as Preset)}>
            <option value="7">Last 7 days</option>
            <option value="30">Last 30 days</option>
            <option value="90">Last 90 days</option>
            <option value="custom">Custom</option>
          </select>
        </label>
        {preset === 'custom' && (
          <>
            <label>
              From
              <input type="date" value={customFrom} onInput={(e) => setCustomFrom(e.currentTarget.value)} />
            </label>
            <label>
              To
              <input type="date" value={customTo} onInput={(e) => setCustomTo(e.currentTarget.value)} />
            </label>
          </>
        )}
        <label>
          Group by
          <select value={groupBy} onChange={(e) => setGroupBy(e.currentTarget.value as (typeof GROUPS)[number])}>
            {GROUPS.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </label>
        {filterFields.map((field) => (
          <label key={field}>
            {field[0].toUpperCase() + field.slice(1)}
            <input
              type="text"
              maxLength={200}
              value={filters[field]}
              placeholder="any"
              onInput={(e) => setFilters({ ...filters, [field]: e.currentTarget.value.trim() })}
            />
          </label>
        ))}
        <button type="submit">Apply filters</button>
        {query && (
          <a class="button secondary" href={`${API}/usage.csv${query}`} download>
            Export CSV
          </a>
        )}
      </form>
      <ErrorAlert error={error} />
      {report && (
        <dl class="totals" data-testid="usage-totals">
          <div>
            <dt>Requests</dt>
            <dd>{formatInt(report.totals.requests)}</dd>
          </div>
          <div>
            <dt>Errors</dt>
            <dd>{formatInt(report.totals.errors)}</dd>
          </div>
          <div>
            <dt>Tokens in / out</dt>
            <dd>
              {formatInt(report.totals.inputTokens)} / {formatInt(report.totals.outputTokens)}
            </dd>
          </div>
          <div>
            <dt>Cost</dt>
            <dd>{formatNusdAsUsd(report.totals.costNusd)}</dd>
          </div>
        </dl>
      )}
      {series && <UsageChart data={series} />}
      {report && <UsageTable rows={report.rows} groupBy={groupBy} />}
      {range && <RefusalsPanel from={range.from} to={range.to} keyId={applied.key} accountId={applied.account} asked={asked} />}
      {range && <ErrorsPanel from={range.from} to={range.to} filters={applied} asked={asked} />}
    </>
  );
}

function UsageTable(props: { rows: UsageRow[]; groupBy: string }) {
  return (
    <TableWrap label="Usage table">
      <table data-testid="usage-table">
        <caption>Usage by {props.groupBy}</caption>
        <thead>
          <tr>
            <th scope="col">{props.groupBy[0].toUpperCase() + props.groupBy.slice(1)}</th>
            <th scope="col" class="num">
              Requests
            </th>
            <th scope="col" class="num">
              Errors
            </th>
            <th scope="col" class="num">
              Input tokens
            </th>
            <th scope="col" class="num">
              Cached tokens
            </th>
            <th scope="col" class="num">
              Output tokens
            </th>
            <th scope="col" class="num">
              Cost
            </th>
            <th scope="col" class="num">
              p50
            </th>
            <th scope="col" class="num">
              p95
            </th>
            <th scope="col" class="num">
              p99
            </th>
          </tr>
        </thead>
        <tbody>
          {props.rows.length === 0 && (
            <tr>
              <td colSpan={10}>No usage in this period.</td>
            </tr>
          )}
          {props.rows.map((row) => (
            <tr key={String(row.group)}>
              <th scope="row">{row.label || String(row.group ?? '—')}</th>
              <td class="num">{formatInt(row.requests)}</td>
              <td class="num">{formatInt(row.errors)}</td>
              <td class="num">{formatInt(row.inputTokens)}</td>
              <td class="num">{formatInt(row.cacheReadTokens)}</td>
              <td class="num">{formatInt(row.outputTokens)}</td>
              <td class="num">{formatNusdAsUsd(row.costNusd)}</td>
              <td class="num">{formatMs(row.latencyMs?.p50)}</td>
              <td class="num">{formatMs(row.latencyMs?.p95)}</td>
              <td class="num">{formatMs(row.latencyMs?.p99)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
