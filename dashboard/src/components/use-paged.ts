/** A cursor-paged list: first page on load and when `query` changes, "Load more" appends. */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { get } from '../api.js';
import type { Page } from '../types.js';
import { messageOf } from './alert.js';

export function usePaged<T>(path: string, query: string) {
  const [items, setItems] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (after: string | null) => {
      setLoading(true);
      setError(null);
      try {
        const sep = query ? '&' : '?';
        const page = await get<Page<T>>(`${path}${query}${after ? `${sep}cursor=${encodeURIComponent(after)}` : ''}`);
        setItems((old) => (after ? [...old, ...page.data] : page.data));
        setCursor(page.nextCursor);
      } catch (e) {
        setError(messageOf(e));
      } finally {
        setLoading(false);
      }
    },
    [path, query],
  );

  useEffect(() => {
    void load(null);
  }, [load]);

  return { items, setItems, loading, error, setError, hasMore: cursor !== null, more: () => load(cursor), reload: () => load(null) };
}
