import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorAlert, messageOf } from '../components/alert.js';
import { useTitle } from '../components/use-title.js';
import type { Session } from '../types.js';

export function SignInPage(props: { onSignedIn: (session: Session) => void }) {
  useTitle('Sign in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      props.onSignedIn(await api<Session>('POST', '/session', { email: email.trim(), password }, { quiet401: true }));
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="auth">
      <form class="card" onSubmit={submit} data-testid="sign-in-form">
        <h1>Sign in to gengate</h1>
        <label>
          Email
          <input type="email" autoComplete="username" required maxLength={320} value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
        </label>
        <label>
          Password
          <input
            type="password"
            autoComplete="current-password"
            required
            maxLength={256}
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <ErrorAlert error={error} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
