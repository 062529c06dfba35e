/** The frame of every signed-in page: skip link, navigation, account menu, main region. */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { BASE, type PageName, type Route } from '../lib/routes.js';
import { useSession } from '../session.js';
import { messageOf } from './alert.js';
import { ChangePasswordDialog } from './change-password.js';
import { Link } from './link.js';

const NAV: { page: PageName; label: string; admin?: boolean }[] = [
  { page: 'usage', label: 'Usage' },
  { page: 'keys', label: 'API keys' },
  { page: 'tasks', label: 'Tasks' },
  { page: 'playground', label: 'Playground' },
  { page: 'models', label: 'Models' },
  { page: 'channels', label: 'Channels', admin: true },
  { page: 'accounts', label: 'Accounts', admin: true },
  { page: 'audit', label: 'Audit log', admin: true },
];

export function Layout(props: { route: Route; children: ComponentChildren }) {
  const { session, isAdmin, signOut } = useSession();
  const [menuOpen, setMenuOpen] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const [signOutError, setSignOutError] = useState<string | null>(null);
  const current = props.route.page === 'task' ? 'tasks' : props.route.page;
  // A page change closes the folded navigation (narrow screens).
  useEffect(() => setMenuOpen(false), [props.route.page, props.route.id]);

  const doSignOut = (everywhere: boolean) => signOut(everywhere).catch((e) => setSignOutError(messageOf(e)));

  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">gengate</span>
        <button type="button" class="nav-toggle" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <nav id="main-nav" aria-label="Main" class={menuOpen ? 'open' : ''}>
          <ul>
            {NAV.filter((item) => !item.admin || isAdmin).map((item) => (
              <li key={item.page}>
                <Link href={`${BASE}/${item.page}`} current={current === item.page}>
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <details class="account-menu">
          <summary data-testid="account-menu">
            <span class="visually-hidden">Account: </span>
            {session.account.email}
          </summary>
          <div class="menu-panel">
            <p class="muted">Signed in as {session.account.role}</p>
            <button type="button" onClick={() => setPasswordOpen(true)}>
              Change password
            </button>
            <button type="button" onClick={() => doSignOut(false)}>
              Sign out
            </button>
            <button type="button" onClick={() => doSignOut(true)}>
              Sign out everywhere
            </button>
          </div>
        </details>
      </header>
      {signOutError && (
        <div role="alert" class="alert">
          {signOutError}
        </div>
      )}
      <main id="main" tabIndex={-1}>
        {props.children}
      </main>
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </>
  );
}
