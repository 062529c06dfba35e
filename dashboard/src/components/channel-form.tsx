import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { parseNameList } from '../lib/query.js';
import type { Channel, Provider } from '../types.js';
import { ErrorAlert, messageOf } from './alert.js';

export function ChannelForm(props: { channel: Channel | null; providers: Provider[]; onSaved: (c: Channel) => void; onCancel: () => void }) {
  const c = props.channel;
  const [name, setName] = useState(c?.name ?? '');
  const [provider, setProvider] = useState(c?.provider ?? props.providers[0]?.name ?? '');
  const [baseUrl, setBaseUrl] = useState(c?.baseUrl ?? '');
  const [apiKey, setApiKey] = useState('');
  const [models, setModels] = useState(c?.models.join(', ') ?? '');
  const [priority, setPriority] = useState(String(c?.priority ?? 0));
  const [weight, setWeight] = useState(String(c?.weight ?? 1));
  const [timeout, setTimeoutMs] = useState(c?.timeoutMs ? String(c.timeoutMs) : '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const defaultBaseUrl = props.providers.find((p) => p.name === provider)?.defaultBaseUrl;

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const body: Record<string, unknown> = {
      provider,
      baseUrl: baseUrl.trim() || null,
      models: parseNameList(models) ?? [],
      priority: Number(priority) || 0,
      weight: Number(weight) || 0,
      timeoutMs: timeout ? Number(timeout) : null,
    };
    if (apiKey) body.apiKey = apiKey;
    try {
      const saved = c
        ? await api<{ channel: Channel }>('PATCH', `/channels/${encodeURIComponent(c.name)}`, body)
        : await api<{ channel: Channel }>('POST', '/channels', { name: name.trim(), ...body });
      props.onSaved(saved.channel);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} data-testid="channel-form">
      <label>
        Name
        <input type="text" required maxLength={100} readOnly={c !== null} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Provider
        <select required value={provider} onChange={(e) => setProvider(e.currentTarget.value)}>
          {props.providers.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Base URL <span class="muted">(empty for the provider’s default{defaultBaseUrl ? `, ${defaultBaseUrl}` : ''})</span>
        <input type="url" maxLength={2000} value={baseUrl} onInput={(e) => setBaseUrl(e.currentTarget.value)} />
      </label>
      <label>
        API key{' '}
        <span class="muted">{c?.credentialHint ? `(stored: ${c.credentialHint}; leave empty to keep it)` : '(stored encrypted; never shown again)'}</span>
        <input type="password" autoComplete="off" maxLength={4000} value={apiKey} onInput={(e) => setApiKey(e.currentTarget.value)} />
      </label>
      <label>
        Models <span class="muted">(comma-separated)</span>
        <input type="text" required maxLength={8000} value={models} onInput={(e) => setModels(e.currentTarget.value)} />
      </label>
      <div class="fields">
        <label>
          Priority
          <input type="number" value={priority} onInput={(e) => setPriority(e.currentTarget.value)} />
        </label>
        <label>
          Weight
          <input type="number" min={0} value={weight} onInput={(e) => setWeight(e.currentTarget.value)} />
        </label>
        <label>
          Timeout (ms)
          <input type="number" min={1} placeholder="default" value={timeout} onInput={(e) => setTimeoutMs(e.currentTarget.value)} />
        </label>
      </div>
      <ErrorAlert error={error} testId="channel-form-error" />
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" disabled={busy}>
          Save
        </button>
      </div>
    </form>
  );
}
