/** Who is signed in, and which page the path names. */
import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { api, get, setCsrfToken, setUnauthorizedHandler } from './api.js';
import { Layout } from './components/layout.js';
import { BASE, matchRoute, type Route } from './lib/routes.js';
import { AccountsPage } from './pages/accounts.js';
import { AuditPage } from './pages/audit.js';
import { ChannelsPage } from './pages/channels.js';
import { KeysPage } from './pages/keys.js';
import { ModelsPage } from './pages/models.js';
import { NotFoundPage } from './pages/not-found.js';
import { PlaygroundPage } from './pages/playground.js';
import { SetupPage } from './pages/setup.js';
import { SignInPage } from './pages/sign-in.js';
import { TaskPage } from './pages/task.js';
import { TasksPage } from './pages/tasks.js';
import { UsagePage } from './pages/usage.js';
import { navigate, useLocation } from './router.js';
import { SessionContext, type SessionState } from './session.js';
import type { Session } from './types.js';

const ADMIN_PAGES = new Set(['channels', 'accounts', 'audit']);

function page(route: Route, isAdmin: boolean) {
  if (ADMIN_PAGES.has(route.page) && !isAdmin) return <NotFoundPage message="This page is for administrators." />;
  switch (route.page) {
    case 'usage':
      return <UsagePage />;
    case 'keys':
      return <KeysPage />;
    case 'tasks':
      return <TasksPage />;
    case 'task':
      return <TaskPage id={route.id ?? ''} />;
    case 'playground':
      return <PlaygroundPage />;
    case 'models':
      return <ModelsPage />;
    case 'channels':
      return <ChannelsPage />;
    case 'accounts':
      return <AccountsPage />;
    case 'audit':
      return <AuditPage />;
    default:
      return <NotFoundPage />;
  }
}

export function App() {
  const path = useLocation();
  const route = matchRoute(path);
  const [session, setSession] = useState<Session | null | undefined>(undefined);

  const signedIn = useCallback((next: Session) => {
    setCsrfToken(next.csrfToken);
    setSession(next);
  }, []);

  const signedOut = useCallback(() => {
    setCsrfToken(null);
    setSession(null);
  }, []);

  useEffect(() => {
    setUnauthorizedHandler(signedOut);
    get<Session>('/session', { quiet401: true }).then(signedIn, signedOut);
  }, [signedIn, signedOut]);

  // Signed in on the sign-in page: go where the user was heading (or to usage).
  useEffect(() => {
    if (session && (route.page === 'sign-in' || route.page === 'setup')) {
      const next = new URLSearchParams(location.search).get('next');
      navigate(next?.startsWith(`${BASE}/`) && !next.startsWith('//') ? next : `${BASE}/usage`, true);
    }
  }, [session, route.page]);

  const state = useMemo<SessionState | null>(
    () =>
      session
        ? {
            session,
            isAdmin: session.account.role === 'admin',
            signOut: async (everywhere) => {
              try {
                if (everywhere) await api('POST', '/session/sign-out-everywhere', undefined, { quiet401: true });
                else await api('DELETE', '/session', undefined, { quiet401: true });
              } finally {
                signedOut();
                navigate(`${BASE}/sign-in`);
              }
            },
          }
        : null,
    [session, signedOut],
  );

  if (route.page === 'setup' && !session) return <SetupPage onSignedIn={signedIn} />;
  if (session === undefined) {
    return (
      <main id="main" class="center" aria-busy="true">
        <p>Loading…</p>
      </main>
    );
  }
  if (!state) return <SignInPage onSignedIn={signedIn} />;
  if (route.page === 'sign-in' || route.page === 'setup') return null;
  return (
    <SessionContext.Provider value={state}>
      <Layout route={route}>{page(route, state.isAdmin)}</Layout>
    </SessionContext.Provider>
  );
}
