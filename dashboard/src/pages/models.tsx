import { useEffect, useState } from 'preact/hooks';
import { api, get } from '../api.js';
import { ErrorAlert, messageOf } from '../components/alert.js';
import { Dialog } from '../components/dialog.js';
import { TableWrap } from '../components/table-wrap.js';
import { useTitle } from '../components/use-title.js';
import { formatPrice } from '../lib/format.js';
import { sourceLink } from '../lib/price-source.js';
import { parseNameList } from '../lib/query.js';
import { useSession } from '../session.js';
import type { Model } from '../types.js';

export function ModelsPage() {
  useTitle('Models');
  const { isAdmin } = useSession();
  const [models, setModels] = useState<Model[]>([]);
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<Model | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = () =>
    get<{ data: Model[] }>('/models').then(
      (body) => setModels(body.data),
      (e) => setError(messageOf(e)),
    );
  useEffect(() => {
    void load();
  }, []);

  const reset = async (model: Model) => {
    setError(null);
    try {
      await api('DELETE', `/models/${encodeURIComponent(model.id)}`);
      await load();
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const needle = filter.trim().toLowerCase();
  const shown = needle ? models.filter((m) => m.id.toLowerCase().includes(needle) || m.displayName?.toLowerCase().includes(needle)) : models;

  return (
    <>
      <h1>Models</h1>
      <div class="toolbar">
        <label>
          Find a model
          <input type="search" maxLength={200} value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
        </label>
      </div>
      <ErrorAlert error={error} />
      <TableWrap label="Models">
        <table data-testid="models-table">
          <caption>
            {shown.length} of {models.length} models in the catalog
          </caption>
          <thead>
            <tr>
              <th scope="col">Model</th>
              <th scope="col">Operations</th>
              <th scope="col">Price</th>
              <th scope="col">Channels</th>
              {isAdmin && (
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {shown.map((m) => (
              <tr key={m.id}>
                <th scope="row">
                  <code>{m.id}</code>
                  {m.displayName && m.displayName !== m.id && <div class="muted">{m.displayName}</div>}
                  {m.overridden && <span class="badge">edited</span>}
                </th>
                <td>
                  {m.operations.join(', ')}
                  {m.capabilities && m.capabilities.length > 0 && <div class="muted">{m.capabilities.join(', ')}</div>}
                </td>
                <td class="wrap">
                  {formatPrice(m.price)}
                  {m.price?.above !== undefined && <div>above {formatPrice(m.price.above)}</div>}
                  {m.priceSource && <PriceSource url={m.priceSource.url} date={m.priceSource.date} />}
                  {!m.price && <div class="muted">unpriced</div>}
                </td>
                <td class="wrap">{m.channels.length ? m.channels.join(', ') : <span class="muted">none</span>}</td>
                {isAdmin && (
                  <td class="row-actions">
                    <button type="button" class="secondary" aria-label={`Edit ${m.id}`} onClick={() => setEditing(m)}>
                      Edit
                    </button>
                    {m.overridden && (
                      <button type="button" class="secondary" aria-label={`Reset ${m.id}`} onClick={() => reset(m)}>
                        Reset
                      </button>
                    )}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <Dialog open={editing !== null} title={`Edit ${editing?.id ?? ''}`} onClose={() => setEditing(null)}>
        {editing && (
          <ModelForm
            model={editing}
            onCancel={() => setEditing(null)}
            onSaved={(saved) => {
              setModels((list) => list.map((m) => (m.id === saved.id ? saved : m)));
              setEditing(null);
            }}
          />
        )}
      </Dialog>
    </>
  );
}

/** Where the price was read (a link when it is a web address) and when. */
function PriceSource(props: { url: string; date: string }) {
  const href = sourceLink(props.url);
  return (
    <div class="muted price-source" data-testid="price-source">
      {href ? (
        <a href={href} target="_blank" rel="noreferrer noopener">
          {props.url}
        </a>
      ) : (
        props.url
      )}
      , <time dateTime={props.date}>{props.date}</time>
    </div>
  );
}

const PRICE_FIELDS = [
  ['input', 'Input, USD per million tokens'],
  ['output', 'Output, USD per million tokens'],
  ['cacheRead', 'Cache read, USD per million tokens'],
  ['cacheWrite', 'Cache write, USD per million tokens'],
  ['perUnit', 'Per unit (image, second of video), USD'],
] as const;
type PriceField = (typeof PRICE_FIELDS)[number][0];

function ModelForm(props: { model: Model; onSaved: (m: Model) => void; onCancel: () => void }) {
  const [displayName, setDisplayName] = useState(props.model.displayName ?? '');
  const [operations, setOperations] = useState(props.model.operations.join(', '));
  const current = (props.model.price ?? {}) as Partial<Record<PriceField, number>>;
  const [price, setPrice] = useState<Record<PriceField, string>>(
    Object.fromEntries(PRICE_FIELDS.map(([field]) => [field, current[field] === undefined ? '' : String(current[field])])) as Record<PriceField, string>,
  );
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    // Only the fields filled in are sent: the others keep the catalog's value.
    const priceBody: Partial<Record<PriceField, number>> = {};
    for (const [field] of PRICE_FIELDS) if (price[field].trim() !== '') priceBody[field] = Number(price[field]);
    try {
      const { model } = await api<{ model: Model }>('PUT', `/models/${encodeURIComponent(props.model.id)}`, {
        ...(displayName.trim() ? { displayName: displayName.trim() } : {}),
        operations: parseNameList(operations) ?? [],
        ...(Object.keys(priceBody).length > 0 ? { price: priceBody } : {}),
      });
      props.onSaved(model);
    } catch (e) {
      setError(messageOf(e));
    }
  };

  return (
    <form onSubmit={submit}>
      <label>
        Display name
        <input type="text" maxLength={200} value={displayName} onInput={(e) => setDisplayName(e.currentTarget.value)} />
      </label>
      <label>
        Operations <span class="muted">(comma-separated)</span>
        <input type="text" maxLength={2000} value={operations} onInput={(e) => setOperations(e.currentTarget.value)} />
      </label>
      <fieldset class="fields">
        <legend>Price</legend>
        {PRICE_FIELDS.map(([field, label]) => (
          <label key={field}>
            {label}
            <input type="number" min={0} step="any" value={price[field]} onInput={(e) => setPrice({ ...price, [field]: e.currentTarget.value })} />
          </label>
        ))}
      </fieldset>
      <ErrorAlert error={error} />
      <div class="actions">
        <button type="button" class="secondary" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit">Save</button>
      </div>
    </form>
  );
}
