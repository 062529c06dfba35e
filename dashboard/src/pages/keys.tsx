import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorAlert, messageOf } from '../components/alert.js';
import { CopyButton } from '../components/copy-button.js';
import { ConfirmDialog } from '../components/confirm-dialog.js';
import { Dialog } from '../components/dialog.js';
import { LimitsPanel } from '../components/limits-panel.js';
import { usePaged } from '../components/use-paged.js';
import { TableWrap } from '../components/table-wrap.js';
import { useTitle } from '../components/use-title.js';
import { formatDate } from '../lib/format.js';
import { expiryFromDateInput, parseNameList } from '../lib/query.js';
import { useSession } from '../session.js';
import type { ApiKey } from '../types.js';

export function KeysPage() {
  useTitle('API keys');
  const { isAdmin } = useSession();
  const keys = usePaged<ApiKey>('/keys', '');
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [limitsOf, setLimitsOf] = useState<ApiKey | null>(null);
  const [error, setError] = useState<string | null>(null);

  const revoke = async () => {
    if (!revoking) return;
    setError(null);
    try {
      const { key } = await api<{ key: ApiKey }>('DELETE', `/keys/${encodeURIComponent(revoking.id)}`);
      keys.setItems((items) => items.map((k) => (k.id === key.id ? key : k)));
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setRevoking(null);
    }
  };

  return (
    <>
      <h1>API keys</h1>
      <CreateKeyForm
        isAdmin={isAdmin}
        onCreated={(key, value) => {
          keys.setItems((items) => [key, ...items]);
          setSecret({ name: key.name, secret: value });
        }}
      />
      <ErrorAlert error={error ?? keys.error} />
      <TableWrap label="API keys">
        <table data-testid="keys-table">
          <caption>Your API keys{isAdmin ? ' (and every account’s)' : ''}</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Models</th>
              <th scope="col">Expires</th>
              <th scope="col">Status</th>
              {isAdmin && <th scope="col">Owner</th>}
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {!keys.loading && keys.items.length === 0 && (
              <tr>
                <td colSpan={isAdmin ? 7 : 6}>No keys yet.</td>
              </tr>
            )}
            {keys.items.map((key) => (
              <tr key={key.id} data-testid={`key-${key.id}`}>
                <th scope="row">
                  {key.name}
                  {key.admin && <span class="badge">admin</span>}
                </th>
                <td>
                  <code>{key.hint}</code>
                </td>
                <td>{key.models?.length ? key.models.join(', ') : 'all'}</td>
                <td>{key.expiresAt ? formatDate(key.expiresAt) : 'never'}</td>
                <td>
                  <span class={`badge status-${key.status}`}>{key.status}</span>
                </td>
                {isAdmin && <td>{key.accountEmail ?? '—'}</td>}
                <td>
                  <button type="button" class="secondary" aria-label={`Limits of ${key.name}`} onClick={() => setLimitsOf(key)}>
                    Limits
                  </button>{' '}
                  {key.status === 'active' && (
                    <button type="button" class="danger" aria-label={`Revoke ${key.name}`} onClick={() => setRevoking(key)}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {keys.hasMore && (
        <button type="button" class="secondary" disabled={keys.loading} onClick={keys.more}>
          Load more
        </button>
      )}

      <Dialog open={secret !== null} title="Your new API key" onClose={() => setSecret(null)} testId="secret-dialog">
        <p class="warning">Copy this key now. It is shown only once; the gateway keeps only a hash of it.</p>
        <label>
          API key “{secret?.name}”
          <input id="new-key-secret" type="text" readOnly value={secret?.secret ?? ''} data-testid="new-key-secret" onFocus={(e) => e.currentTarget.select()} />
        </label>
        <div class="actions">
          <CopyButton text={secret?.secret ?? ''} fieldId="new-key-secret" />
          <button type="button" class="secondary" onClick={() => setSecret(null)}>
            Done
          </button>
        </div>
      </Dialog>

      <Dialog open={limitsOf !== null} title="Limits and budgets" onClose={() => setLimitsOf(null)} testId="limits-dialog">
        {limitsOf && <LimitsPanel scope="key" subject={limitsOf.id} name={limitsOf.name} isAdmin={isAdmin} />}
        <div class="actions">
          <button type="button" class="secondary" onClick={() => setLimitsOf(null)}>
            Close
          </button>
        </div>
      </Dialog>

      <ConfirmDialog open={revoking !== null} title="Revoke this key?" action="Revoke" onConfirm={revoke} onCancel={() => setRevoking(null)}>
        <p>
          Requests with <strong>{revoking?.name}</strong> (<code>{revoking?.hint}</code>) will be refused within a second. This cannot be undone.
        </p>
      </ConfirmDialog>
    </>
  );
}

function CreateKeyForm(props: { isAdmin: boolean; onCreated: (key: ApiKey, secret: string) => void }) {
  const [name, setName] = useState('');
  const [models, setModels] = useState('');
  const [expires, setExpires] = useState('');
  const [admin, setAdmin] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    const expiresAt = expires ? expiryFromDateInput(expires) : null;
    if (expires && expiresAt === null) return setError('The expiry date is not a valid date.');
    setBusy(true);
    setError(null);
    try {
      const body = { name: name.trim(), models: parseNameList(models), expiresAt, ...(props.isAdmin ? { admin } : {}) };
      const created = await api<{ key: ApiKey; secret: string }>('POST', '/keys', body);
      setName('');
      setModels('');
      setExpires('');
      setAdmin(false);
      props.onCreated(created.key, created.secret);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="panel" onSubmit={submit} aria-labelledby="create-key-title">
      <h2 id="create-key-title">New key</h2>
      <div class="fields">
        <label>
          Name
          <input type="text" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <label>
          Allowed models <span class="muted">(comma-separated; empty for all)</span>
          <input type="text" maxLength={4000} value={models} onInput={(e) => setModels(e.currentTarget.value)} />
        </label>
        <label>
          Expires on <span class="muted">(optional)</span>
          <input type="date" value={expires} onInput={(e) => setExpires(e.currentTarget.value)} />
        </label>
        {props.isAdmin && (
          <label class="check">
            <input type="checkbox" checked={admin} onChange={(e) => setAdmin(e.currentTarget.checked)} />
            Admin key (can call the admin API)
          </label>
        )}
      </div>
      <ErrorAlert error={error} testId="create-key-error" />
      <button type="submit" disabled={busy}>
        Create key
      </button>
    </form>
  );
}
