/**
 * The one way the dashboard calls the admin API: same-origin credentials, the CSRF token on
 * every state-changing request, the API's error message surfaced, and 401 handed to the app
 * (which shows the sign-in page).
 */
export const API = '/admin/v1';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken: string | null = null;
let onUnauthorized: () => void = () => {};

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export function requestHeaders(method: string, json: boolean): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (json) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers['x-csrf-token'] = csrfToken;
  return headers;
}

/** The API's `error.message`, or a sentence about the status when the body is not the error shape. */
export async function errorFrom(response: Response): Promise<ApiError> {
  let code = 'http_error';
  let message = `The server answered ${response.status} ${response.statusText}.`.replace(' .', '.');
  try {
    const body = (await response.json()) as { error?: { code?: unknown; message?: unknown } };
    if (typeof body.error?.message === 'string') message = body.error.message;
    if (typeof body.error?.code === 'string') code = body.error.code;
  } catch {
    // Not JSON: keep the status sentence.
  }
  if (response.status === 429 && code === 'http_error') message = 'Too many attempts. Wait a minute and try again.';
  return new ApiError(response.status, code, message);
}

export interface CallOptions {
  /** Do not treat 401 as "signed out" (the sign-in form itself). */
  quiet401?: boolean;
  signal?: AbortSignal;
}

/** Sends a request; returns the response when it is 2xx, else throws ApiError. */
export async function send(method: string, path: string, body?: unknown, options: CallOptions = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`${API}${path}`, {
      method,
      credentials: 'same-origin',
      headers: requestHeaders(method, body !== undefined),
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'The gateway could not be reached. Check your connection and try again.');
  }
  if (response.ok) return response;
  const error = await errorFrom(response);
  if (response.status === 401 && !options.quiet401) onUnauthorized();
  throw error;
}

export async function api<T>(method: string, path: string, body?: unknown, options?: CallOptions): Promise<T> {
  const response = await send(method, path, body, options);
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const get = <T>(path: string, options?: CallOptions) => api<T>('GET', path, undefined, options);
