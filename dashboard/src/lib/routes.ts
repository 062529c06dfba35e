/** The dashboard's client-side routes under `/dashboard/…` (history API, no hash). */

export const BASE = '/dashboard';

export type PageName = 'usage' | 'keys' | 'tasks' | 'task' | 'playground' | 'models' | 'channels' | 'accounts' | 'audit' | 'sign-in' | 'setup' | 'not-found';

export interface Route {
  page: PageName;
  /** The task id on the `task` page. */
  id?: string;
}

const SIMPLE: Record<string, PageName> = {
  '': 'usage',
  usage: 'usage',
  keys: 'keys',
  tasks: 'tasks',
  playground: 'playground',
  models: 'models',
  channels: 'channels',
  accounts: 'accounts',
  audit: 'audit',
  'sign-in': 'sign-in',
  setup: 'setup',
};

export function matchRoute(pathname: string): Route {
  if (pathname !== BASE && !pathname.startsWith(`${BASE}/`)) return { page: 'not-found' };
  const parts = pathname.slice(BASE.length).split('/').filter(Boolean);
  if (parts.length <= 1) {
    const page = SIMPLE[parts[0] ?? ''];
    return page ? { page } : { page: 'not-found' };
  }
  if (parts.length === 2 && parts[0] === 'tasks') {
    try {
      return { page: 'task', id: decodeURIComponent(parts[1]) };
    } catch {
      return { page: 'not-found' };
    }
  }
  return { page: 'not-found' };
}

export function pathFor(route: Route): string {
  if (route.page === 'task') return `${BASE}/tasks/${encodeURIComponent(route.id ?? '')}`;
  if (route.page === 'usage') return `${BASE}/usage`;
  return `${BASE}/${route.page}`;
}

/** The one-time setup token, from `#token=…` (preferred: never sent to a server) or `?token=…`. */
export function readSetupToken(hash: string, search: string): string | null {
  for (const part of [hash.replace(/^#/, ''), search.replace(/^\?/, '')]) {
    const token = new URLSearchParams(part).get('token');
    if (token) return token.slice(0, 512);
  }
  return null;
}
