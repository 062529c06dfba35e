import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Session } from './types.js';

export interface SessionState {
  session: Session;
  isAdmin: boolean;
  signOut: (everywhere: boolean) => Promise<void>;
}

export const SessionContext = createContext<SessionState | null>(null);

export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession outside a signed-in page');
  return state;
}
