import { useEffect, useState } from 'preact/hooks';
import { api, get } from '../api.js';
import { ErrorAlert, messageOf } from '../components/alert.js';
import { CopyButton } from '../components/copy-button.js';
import { Dialog } from '../components/dialog.js';
import { LimitsPanel } from '../components/limits-panel.js';
import { TableWrap } from '../components/table-wrap.js';
import { useTitle } from '../components/use-title.js';
import { formatDate } from '../lib/format.js';
import { useSession } from '../session.js';
import type { AccountRow, Role } from '../types.js';

export function AccountsPage() {
  useTitle('Accounts');
  const { session } = useSession();
  const [accounts, setAccounts] = useState<AccountRow[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [invite, setInvite] = useState<{ email: string; setupUrl: string } | null>(null);
  const [limitsOf, setLimitsOf] = useState<AccountRow | null>(null);

  useEffect(() => {
    get<{ data: AccountRow[] }>('/accounts').then(
      (body) => setAccounts(body.data),
      (e) => setError(messageOf(e)),
    );
  }, []);

  const patch = async (account: AccountRow, change: { role?: Role; disabled?: boolean }) => {
    setError(null);
    try {
      const body = await api<{ account?: AccountRow } & Partial<AccountRow>>('PATCH', `/accounts/${encodeURIComponent(account.id)}`, change);
      const updated = body.account ?? (body as AccountRow);
      setAccounts((list) => list.map((a) => (a.id === account.id ? { ...a, ...updated } : a)));
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const create = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const body = await api<{ account: AccountRow; setupUrl: string }>('POST', '/accounts', { email: email.trim(), role });
      setAccounts((list) => [...list, body.account]);
      setInvite({ email: body.account.email, setupUrl: body.setupUrl });
      setEmail('');
      setRole('member');
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <>
      <h1>Accounts</h1>
      <form class="panel" onSubmit={create} aria-labelledby="invite-title">
        <h2 id="invite-title">Invite someone</h2>
        <div class="fields">
          <label>
            Email
            <input type="email" required maxLength={320} value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          </label>
          <label>
            Role
            <select value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              <option value="member">member</option>
              <option value="admin">admin</option>
            </select>
          </label>
        </div>
        <button type="submit">Invite</button>
      </form>
      <ErrorAlert error={error} />
      <TableWrap label="Accounts">
        <table data-testid="accounts-table">
          <caption>Accounts that can sign in to the dashboard</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {accounts.map((a) => {
              const self = a.id === session.account.id;
              return (
                <tr key={a.id}>
                  <th scope="row">
                    {a.email}
                    {self && <span class="badge">you</span>}
                  </th>
                  <td>
                    <select
                      aria-label={`Role of ${a.email}`}
                      value={a.role}
                      disabled={self}
                      onChange={(e) => patch(a, { role: e.currentTarget.value as Role })}
                    >
                      <option value="member">member</option>
                      <option value="admin">admin</option>
                    </select>
                  </td>
                  <td>{formatDate(a.createdAt)}</td>
                  <td>{a.disabledAt ? 'disabled' : a.hasPassword ? 'active' : 'invited'}</td>
                  <td>
                    <button type="button" class="secondary" aria-label={`Limits of ${a.email}`} onClick={() => setLimitsOf(a)}>
                      Limits
                    </button>{' '}
                    {!self && (
                      <button type="button" class={a.disabledAt ? 'secondary' : 'danger'} onClick={() => patch(a, { disabled: !a.disabledAt })}>
                        {a.disabledAt ? 'Enable' : 'Disable'}
                        <span class="visually-hidden"> {a.email}</span>
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableWrap>
      <Dialog open={limitsOf !== null} title="Limits and budgets" onClose={() => setLimitsOf(null)} testId="limits-dialog">
        {limitsOf && <LimitsPanel scope="account" subject={limitsOf.id} name={limitsOf.email} isAdmin />}
        <div class="actions">
          <button type="button" class="secondary" onClick={() => setLimitsOf(null)}>
            Close
          </button>
        </div>
      </Dialog>
      <Dialog open={invite !== null} title="Hand over this link" onClose={() => setInvite(null)} testId="invite-dialog">
        <p>
          Send this one-time link to <strong>{invite?.email}</strong> over a channel you trust. It sets their password and then stops working.
        </p>
        <label>
          Setup link
          <input id="invite-link" type="text" readOnly value={invite?.setupUrl ?? ''} onFocus={(e) => e.currentTarget.select()} />
        </label>
        <div class="actions">
          <CopyButton text={invite?.setupUrl ?? ''} fieldId="invite-link" />
          <button type="button" class="secondary" onClick={() => setInvite(null)}>
            Done
          </button>
        </div>
      </Dialog>
    </>
  );
}
