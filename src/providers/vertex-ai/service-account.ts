/**
 * A Google service-account key file (the JSON the Cloud console downloads), held as the channel's
 * sealed credential. Only the members the token exchange needs are read; the token endpoint is
 * the file's own `token_uri`, as Google's Python and Go libraries use it.
 */
import { GatewayError } from '../../core/errors.js';

export interface ServiceAccount {
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string;
  tokenUri: string;
  projectId?: string;
}

const MAX_KEY_FILE_CHARS = 64 * 1024;
const DEFAULT_TOKEN_URI = 'https://oauth2.googleapis.com/token';

/** Parsed key files by their text: a channel's key is parsed once. */
const parsed = new Map<string, ServiceAccount>();

function refused(channel: string, why: string): GatewayError {
  // The channel is misconfigured, not the request: another channel may serve it.
  return new GatewayError('upstream', `channel ${channel}: the key is not a usable service-account key file (${why})`, {
    retryable: true,
    errorType: 'upstream.auth',
  });
}

export function serviceAccountOf(channel: string, keyFile: string): ServiceAccount {
  const known = parsed.get(keyFile);
  if (known) return known;
  if (keyFile.length > MAX_KEY_FILE_CHARS) throw refused(channel, 'larger than 64 KiB');
  let json: Record<string, unknown>;
  try {
    const value: unknown = JSON.parse(keyFile);
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
    json = value as Record<string, unknown>;
  } catch {
    throw refused(channel, 'not JSON');
  }
  if (json.type !== undefined && json.type !== 'service_account') throw refused(channel, `type ${String(json.type).slice(0, 40)}`);
  const text = (name: string): string | undefined => (typeof json[name] === 'string' && json[name] !== '' ? (json[name] as string) : undefined);
  const clientEmail = text('client_email');
  const privateKey = text('private_key');
  if (!clientEmail || !privateKey) throw refused(channel, 'client_email and private_key are required');
  const tokenUri = text('token_uri') ?? DEFAULT_TOKEN_URI;
  if (!/^https?:\/\//.test(tokenUri)) throw refused(channel, 'token_uri is not an http(s) URL');
  const account: ServiceAccount = { clientEmail, privateKey, tokenUri, privateKeyId: text('private_key_id'), projectId: text('project_id') };
  if (parsed.size >= 64) parsed.clear();
  parsed.set(keyFile, account);
  return account;
}
