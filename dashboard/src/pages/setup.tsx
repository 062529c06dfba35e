/** The one-time link from the start banner or an invitation: `/dashboard/setup#token=…`. */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorAlert, messageOf } from '../components/alert.js';
import { useTitle } from '../components/use-title.js';
import { readSetupToken } from '../lib/routes.js';
import type { Session } from '../types.js';

export function SetupPage(props: { onSignedIn: (session: Session) => void }) {
  useTitle('Set your password');
  const [token] = useState(() => readSetupToken(location.hash, location.search));
  const [email, setEmail] = useState<string | null>(null);
  const [newEmail, setNewEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(token ? null : 'This link has no setup token. Ask an administrator for a new link.');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!token) return;
    // The token is secret: drop it from the address bar (and so from history) once read.
    history.replaceState(null, '', location.pathname);
    api<{ email: string }>('POST', '/setup/lookup', { token }, { quiet401: true }).then(
      (body) => {
        setEmail(body.email);
        setNewEmail(body.email);
      },
      (e) => setError(messageOf(e)),
    );
  }, [token]);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (password !== confirm) {
      setError('The two passwords differ.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const changed = newEmail.trim() !== '' && newEmail.trim().toLowerCase() !== email;
      props.onSignedIn(await api<Session>('POST', '/setup', { token, password, ...(changed ? { email: newEmail.trim() } : {}) }, { quiet401: true }));
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="auth">
      <form class="card" onSubmit={submit} data-testid="setup-form">
        <h1>Set your password</h1>
        {email && (
          <p>
            Account: <strong data-testid="setup-email">{email}</strong>
          </p>
        )}
        {email && (
          <label>
            Email to sign in with
            <input
              type="email"
              autoComplete="email"
              required
              maxLength={254}
              value={newEmail}
              onInput={(e) => setNewEmail((e.target as HTMLInputElement).value)}
            />
          </label>
        )}
        <label>
          New password
          <input
            type="password"
            autoComplete="new-password"
            required
            maxLength={256}
            disabled={!email}
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <label>
          Repeat the password
          <input
            type="password"
            autoComplete="new-password"
            required
            maxLength={256}
            disabled={!email}
            value={confirm}
            onInput={(e) => setConfirm(e.currentTarget.value)}
          />
        </label>
        <ErrorAlert error={error} />
        <button type="submit" disabled={busy || !email}>
          Set password
        </button>
      </form>
    </main>
  );
}
