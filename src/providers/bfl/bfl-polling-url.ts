/**
 * Which polling URL BFL may hand back. BFL names a regional host (`api.eu1.bfl.ai` for a task
 * submitted to `api.bfl.ai`) and wants the task polled there with the channel's key, so the URL
 * is followed only on the channel's own origin or over https on a host of the channel's own
 * domain (its base host less the first label). Anything else — another domain, a loopback or
 * private service, plain http — would send the operator's key where the upstream points it.
 */
import { GatewayError } from '../../core/errors.js';

export function checkedPollingUrl(pollingUrl: string, baseUrl: string): string {
  const base = new URL(baseUrl);
  let url: URL;
  try {
    url = new URL(pollingUrl);
  } catch {
    throw refused('is not a URL');
  }
  if (url.username || url.password) throw refused('carries credentials');
  if (url.origin === base.origin) return url.toString();
  if (url.protocol !== 'https:') throw refused('is not https on another host');
  const domain = base.hostname.split('.').slice(1).join('.');
  const onDomain = domain.includes('.') && url.hostname.endsWith(`.${domain}`);
  if (!onDomain) throw refused(`is not on the channel's domain (${domain || base.hostname})`);
  return url.toString();
}

function refused(why: string): GatewayError {
  return new GatewayError('upstream', `BFL answered a polling URL that ${why}; it was not followed`, { retryable: false });
}
