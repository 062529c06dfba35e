import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorAlert, messageOf } from './alert.js';
import { Dialog } from './dialog.js';

export function ChangePasswordDialog(props: { open: boolean; onClose: () => void }) {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setCurrent('');
    setNext('');
    setError(null);
    setDone(false);
    props.onClose();
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('POST', '/accounts/me/password', { currentPassword: current, newPassword: next });
      setDone(true);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={props.open} title="Change password" onClose={close}>
      {done ? (
        <>
          <p role="status">Your password is changed.</p>
          <div class="actions">
            <button type="button" onClick={close}>
              Close
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={submit}>
          <label>
            Current password
            <input type="password" autoComplete="current-password" required value={current} onInput={(e) => setCurrent(e.currentTarget.value)} />
          </label>
          <label>
            New password
            <input type="password" autoComplete="new-password" required maxLength={256} value={next} onInput={(e) => setNext(e.currentTarget.value)} />
          </label>
          <ErrorAlert error={error} />
          <div class="actions">
            <button type="button" class="secondary" onClick={close}>
              Cancel
            </button>
            <button type="submit" disabled={busy}>
              Save
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
