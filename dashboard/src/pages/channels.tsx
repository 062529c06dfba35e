/** Channels (admin): stored ones editable, config ones read-only; order, enable, test, delete. */
import { useEffect, useState } from 'preact/hooks';
import { api, get } from '../api.js';
import { ErrorAlert, messageOf } from '../components/alert.js';
import { ChannelForm } from '../components/channel-form.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { Dialog } from '../components/dialog.js';
import { TableWrap } from '../components/table-wrap.js';
import { useTitle } from '../components/use-title.js';
import { formatMs } from '../lib/format.js';
import { ChannelHealthCell } from '../components/channel-health-cell.js';
import type { Channel, ChannelHealth, ChannelTestResult, Provider } from '../types.js';

type Order = Record<string, { priority: number; weight: number }>;

export function ChannelsPage() {
  useTitle('Channels');
  const [channels, setChannels] = useState<Channel[]>([]);
  const [providers, setProviders] = useState<Provider[]>([]);
  const [order, setOrder] = useState<Order>({});
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [editing, setEditing] = useState<Channel | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Channel | null>(null);
  const [tests, setTests] = useState<Record<string, ChannelTestResult | 'running' | string>>({});
  const [health, setHealth] = useState<Record<string, ChannelHealth>>({});

  // Health is extra: the page works without it.
  const loadHealth = async () => {
    const h = await get<{ data: ChannelHealth[] }>('/channels/health').catch(() => ({ data: [] as ChannelHealth[] }));
    setHealth(Object.fromEntries(h.data.map((entry) => [entry.name, entry])));
  };

  const load = async () => {
    try {
      const [c, p] = await Promise.all([get<{ data: Channel[] }>('/channels'), get<{ data: Provider[] }>('/providers')]);
      setChannels(c.data);
      setProviders(p.data);
      setOrder({});
      await loadHealth();
    } catch (e) {
      setError(messageOf(e));
    }
  };
  useEffect(() => {
    void load();
  }, []);

  const run = async (action: () => Promise<void>, done?: string) => {
    setError(null);
    setStatus('');
    try {
      await action();
      if (done) setStatus(done);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const toggle = (channel: Channel) =>
    run(
      async () => {
        const { channel: updated } = await api<{ channel: Channel }>('PATCH', `/channels/${encodeURIComponent(channel.name)}`, { enabled: !channel.enabled });
        setChannels((list) => list.map((c) => (c.name === updated.name ? updated : c)));
      },
      `${channel.name} ${channel.enabled ? 'disabled' : 'enabled'}.`,
    );

  const saveOrder = () =>
    run(async () => {
      const changed = Object.entries(order).map(([name, v]) => ({ name, ...v }));
      const { data } = await api<{ data: Channel[] }>('PUT', '/channels/order', { channels: changed });
      setChannels(data);
      setOrder({});
    }, 'Order saved.');

  const test = async (channel: Channel) => {
    setTests((t) => ({ ...t, [channel.name]: 'running' }));
    try {
      const result = await api<ChannelTestResult>('POST', `/channels/${encodeURIComponent(channel.name)}/test`, {});
      setTests((t) => ({ ...t, [channel.name]: result }));
    } catch (e) {
      setTests((t) => ({ ...t, [channel.name]: messageOf(e) }));
    }
  };

  const remove = () =>
    run(async () => {
      const target = deleting;
      setDeleting(null);
      if (!target) return;
      await api('DELETE', `/channels/${encodeURIComponent(target.name)}`);
      setChannels((list) => list.filter((c) => c.name !== target.name));
    }, 'Channel deleted.');

  const value = (c: Channel, field: 'priority' | 'weight') => order[c.name]?.[field] ?? c[field];
  const setValue = (c: Channel, field: 'priority' | 'weight', v: number) =>
    setOrder((o) => ({ ...o, [c.name]: { priority: value(c, 'priority'), weight: value(c, 'weight'), [field]: v } }));

  return (
    <>
      <h1>Channels</h1>
      <div class="toolbar">
        <button type="button" onClick={() => setEditing('new')}>
          Add channel
        </button>
        <button type="button" class="secondary" disabled={Object.keys(order).length === 0} onClick={saveOrder}>
          Save order
        </button>
      </div>
      <ErrorAlert error={error} />
      <p role="status" class="muted">
        {status}
      </p>
      <TableWrap label="Channels">
        <table data-testid="channels-table">
          <caption>Upstream channels; the lowest priority number is tried first, weight shares traffic within a priority</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Provider</th>
              <th scope="col">Models</th>
              <th scope="col">Priority</th>
              <th scope="col">Weight</th>
              <th scope="col">Enabled</th>
              <th scope="col">Health</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {channels.map((c) => {
              const result = tests[c.name];
              return (
                <tr key={c.name} data-testid={`channel-${c.name}`}>
                  <th scope="row">
                    {c.name}
                    <span
                      class={`badge source-${c.source}`}
                      title={c.readOnly ? 'Defined in the configuration file or environment: read-only here' : undefined}
                    >
                      {c.source}
                    </span>
                  </th>
                  <td>{c.provider}</td>
                  <td class="wrap">{c.models.join(', ')}</td>
                  <td>
                    <input
                      class="narrow"
                      type="number"
                      aria-label={`Priority of ${c.name}`}
                      disabled={c.readOnly}
                      value={value(c, 'priority')}
                      onInput={(e) => setValue(c, 'priority', Number(e.currentTarget.value))}
                    />
                  </td>
                  <td>
                    <input
                      class="narrow"
                      type="number"
                      min={0}
                      aria-label={`Weight of ${c.name}`}
                      disabled={c.readOnly}
                      value={value(c, 'weight')}
                      onInput={(e) => setValue(c, 'weight', Number(e.currentTarget.value))}
                    />
                  </td>
                  <td>
                    <input type="checkbox" aria-label={`${c.name} enabled`} checked={c.enabled} disabled={c.readOnly} onChange={() => toggle(c)} />
                  </td>
                  <td data-testid={`health-${c.name}`}>
                    <ChannelHealthCell circuit={c.circuit} autoDisabled={c.autoDisabled === true} health={health[c.name]} />
                  </td>
                  <td class="row-actions">
                    <button type="button" class="secondary" aria-label={`Test ${c.name}`} disabled={result === 'running'} onClick={() => test(c)}>
                      Test
                    </button>
                    {!c.readOnly && (
                      <>
                        <button type="button" class="secondary" aria-label={`Edit ${c.name}`} onClick={() => setEditing(c)}>
                          Edit
                        </button>
                        <button type="button" class="danger" aria-label={`Delete ${c.name}`} onClick={() => setDeleting(c)}>
                          Delete
                        </button>
                      </>
                    )}
                    {result && <TestResult result={result} name={c.name} />}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableWrap>

      <Dialog open={editing !== null} title={editing === 'new' ? 'Add channel' : `Edit ${editing?.name ?? ''}`} onClose={() => setEditing(null)}>
        {editing !== null && (
          <ChannelForm
            channel={editing === 'new' ? null : editing}
            providers={providers}
            onCancel={() => setEditing(null)}
            onSaved={(saved) => {
              setChannels((list) => (list.some((c) => c.name === saved.name) ? list.map((c) => (c.name === saved.name ? saved : c)) : [...list, saved]));
              setEditing(null);
              setStatus(`${saved.name} saved.`);
              void loadHealth();
            }}
          />
        )}
      </Dialog>

      <ConfirmDialog open={deleting !== null} title="Delete this channel?" action="Delete" onConfirm={remove} onCancel={() => setDeleting(null)}>
        <p>
          <strong>{deleting?.name}</strong> stops serving requests at once and its stored credential is deleted.
        </p>
      </ConfirmDialog>
    </>
  );
}

function TestResult(props: { name: string; result: ChannelTestResult | 'running' | string }) {
  const { result } = props;
  if (result === 'running') return <output class="test-result">Testing…</output>;
  if (typeof result === 'string') return <output class="test-result fail">{result}</output>;
  return (
    <output class={`test-result ${result.ok ? 'ok' : 'fail'}`} data-testid={`test-result-${props.name}`}>
      <strong>{result.ok ? 'OK' : 'Failed'}</strong> {result.model} · {formatMs(result.latencyMs)}
      {result.status !== undefined && ` · HTTP ${result.status}`} — {result.message}
      {result.sample && <q>{result.sample}</q>}
    </output>
  );
}
