import { describe, expect, it } from 'vitest';
import { matchRoute, pathFor, readSetupToken } from './routes.js';

describe('matchRoute', () => {
  it('maps the dashboard paths to pages', () => {
    expect(matchRoute('/dashboard')).toEqual({ page: 'usage' });
    expect(matchRoute('/dashboard/')).toEqual({ page: 'usage' });
    expect(matchRoute('/dashboard/keys')).toEqual({ page: 'keys' });
    expect(matchRoute('/dashboard/channels/')).toEqual({ page: 'channels' });
    expect(matchRoute('/dashboard/tasks/task%2F1')).toEqual({ page: 'task', id: 'task/1' });
    expect(matchRoute('/dashboard/setup')).toEqual({ page: 'setup' });
  });

  it('anything else is not found', () => {
    for (const path of ['/', '/dashboards', '/dashboard/nope', '/dashboard/keys/x', '/dashboard/tasks/%E0%A4%A'])
      expect(matchRoute(path), path).toEqual({ page: 'not-found' });
  });

  it('round-trips through pathFor', () => {
    expect(matchRoute(pathFor({ page: 'task', id: 'a b/c' }))).toEqual({ page: 'task', id: 'a b/c' });
    expect(pathFor({ page: 'audit' })).toBe('/dashboard/audit');
  });
});

describe('readSetupToken', () => {
  it('prefers the fragment, accepts the query, else null', () => {
    expect(readSetupToken('#token=abc', '?token=def')).toBe('abc');
    expect(readSetupToken('', '?token=def')).toBe('def');
    expect(readSetupToken('#other=1', '')).toBeNull();
    expect(readSetupToken('#token=', '')).toBeNull();
  });
});
