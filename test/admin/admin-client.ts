/**
 * Drives the admin API over real HTTP as a browser would (session cookie + CSRF token) or as a
 * script would (Bearer key), for the admin tests.
 */
import { hashPassword } from '../../src/admin/passwords.js';
import { newAccount } from '../../src/admin/setup-links.js';
import type { AccountRole } from '../../src/store/schema.js';
import type { RunningGateway } from '../helpers/start-gateway.js';

export interface AdminResponse {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: answers are JSON that tests check field by field
  body: any;
}

export class AdminClient {
  cookie?: string;
  csrfToken?: string;

  constructor(
    readonly baseUrl: string,
    private readonly bearer?: string,
  ) {}

  async call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<AdminResponse> {
    const response = await fetch(`${this.baseUrl}/admin/v1${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(this.csrfToken && method !== 'GET' ? { 'x-csrf-token': this.csrfToken } : {}),
        ...(this.bearer ? { authorization: `Bearer ${this.bearer}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) {
      const [pair] = setCookie.split(';');
      this.cookie = pair.endsWith('=') ? undefined : pair;
    }
    const text = await response.text();
    const type = response.headers.get('content-type') ?? '';
    return { status: response.status, headers: response.headers, body: type.includes('json') && text ? JSON.parse(text) : text };
  }

  async signIn(email: string, password: string): Promise<AdminResponse> {
    const answer = await this.call('POST', '/session', { email, password });
    if (answer.status === 200) this.csrfToken = answer.body.csrfToken;
    return answer;
  }
}

/** Creates an account with a password directly in the store and returns a client signed in as it. */
export async function signedInClient(
  running: RunningGateway,
  email: string,
  role: AccountRole,
  password = 'correct horse battery',
): Promise<AdminClient & { accountId: string }> {
  const account = { ...newAccount(email, role), passwordHash: await hashPassword(password) };
  await running.gateway.accounts.insert(account);
  const client = new AdminClient(running.url);
  const answer = await client.signIn(email, password);
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return Object.assign(client, { accountId: account.id });
}
