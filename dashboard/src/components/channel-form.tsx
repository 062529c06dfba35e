import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { parseOptions } from '../lib/channel-options.js';
import { parseNameList } from '../lib/query.js';
import type { Channel, Provider } from '../types.js';
import { ErrorAlert, messageOf } from './alert.js';

const optionsText = (c: Channel | null) => (c?.options && Object.keys(c.options).length > 0 ? JSON.stringify(c.options, null, 2) : '');

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
  const [probing, setProbing] = useState(c?.probe?.enabled === true);
  const [probeSeconds, setProbeSeconds] = useState(String(c?.probe?.intervalSeconds ?? 60));
  const [autoEnable, setAutoEnable] = useState(c?.probe?.autoEnable === true);
  const [optionsJson, setOptionsJson] = useState(optionsText(c));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const defaultBaseUrl = props.providers.find((p) => p.name === provider)?.defaultBaseUrl;
  const secretHints = Object.entries(c?.secretOptionHints ?? {});

  const submit = async (event: Event) => {
    event.preventDefault();
    const parsed = parseOptions(optionsJson);
    if (parsed.error) {
      setError(parsed.error);
      return;
    }
    setBusy(true);
    setError(null);
    const body: Record<string, unknown> = {
      provider,
      models: parseNameList(models) ?? [],
      priority: Number(priority) || 0,
      weight: Number(weight) || 0,
    };
    // Empty fields are left out: the provider's default base URL and timeout apply.
    if (baseUrl.trim()) body.baseUrl = baseUrl.trim();
    if (timeout) body.timeoutMs = Number(timeout);
    if (apiKey) body.apiKey = apiKey;
    if (probing) body.probe = { enabled: true, intervalSeconds: Number(probeSeconds), autoEnable };
    else if (c?.probe) body.probe = null;
    // Empty: none on a new channel; on a stored one, its options are cleared (secret ones stay).
    if (parsed.options) body.options = parsed.options;
    else if (c && Object.keys(c.options ?? {}).length > 0) body.options = {};
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
      <label>
        Options <span class="muted">(JSON, provider-specific, e.g. {'{"region": "eu-west-1"}'})</span>
        {secretHints.length > 0 && (
          <span class="muted" data-testid="channel-secret-options">
            {' '}
            Secret options stored: {secretHints.map(([option, hint]) => `${option} (${hint ?? 'set'})`).join(', ')}; left out they stay, null removes one.
          </span>
        )}
        <textarea rows={3} maxLength={20000} spellcheck={false} value={optionsJson} onInput={(e) => setOptionsJson(e.currentTarget.value)} />
      </label>
      <fieldset>
        <legend>Health probes</legend>
        <label class="check">
          <input type="checkbox" checked={probing} onChange={(e) => setProbing(e.currentTarget.checked)} /> Probe the upstream periodically
        </label>
        <div class="fields">
          <label>
            Probe every (s)
            <input
              type="number"
              min={15}
              max={3600}
              step={1}
              disabled={!probing}
              value={probeSeconds}
              onInput={(e) => setProbeSeconds(e.currentTarget.value)}
            />
          </label>
          <label class="check">
            <input type="checkbox" disabled={!probing} checked={autoEnable} onChange={(e) => setAutoEnable(e.currentTarget.checked)} /> Disable on refused
            credentials, re-enable when a probe passes
          </label>
        </div>
      </fieldset>
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
