/**
 * How long a key revoked through one replica keeps working on the others: every other replica is
 * polled back to back (`GET /v1/models` with the key, one request at a time each) from before the
 * revoke is sent until it answers 401; the time is counted from the moment the revoke's answer
 * arrived (the write committed), so a replica that was already refusing counts 0.
 */
import { MASTER_KEY } from '../gateway-process.js';

export interface RevocationTiming {
  /** Per other replica, ms from the revoke's answer to its first 401 (negative: it refused before the answer arrived). */
  feltAfterMs: number[];
  /** The revoke's own round trip. */
  revokeMs: number;
}

async function answer(url: string, key: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(5_000) });
  const body = await response.text();
  if (response.status !== 200 && response.status !== 401) throw new Error(`${url}/v1/models answered ${response.status} while polling a revocation: ${body}`);
  return { status: response.status, body };
}

async function refuses(url: string, key: string): Promise<boolean> {
  return (await answer(url, key)).status === 401;
}

export async function timeRevocation(revokeVia: string, others: readonly string[], keyId: string, key: string, timeoutMs = 5_000): Promise<RevocationTiming> {
  for (const url of others) {
    const before = await answer(url, key);
    if (before.status === 401) throw new Error(`${url} refuses the key before it was revoked: ${before.body}`);
  }
  let answeredAt: number | undefined;
  let stop = false;
  const polls = others.map(async (url) => {
    const until = Date.now() + timeoutMs;
    while (!stop && Date.now() < until) {
      if (await refuses(url, key)) return Date.now();
    }
    return Number.POSITIVE_INFINITY;
  });
  const sentAt = Date.now();
  const response = await fetch(`${revokeVia}/admin/v1/keys/${keyId}`, { method: 'DELETE', headers: { authorization: `Bearer ${MASTER_KEY}` } });
  answeredAt = Date.now();
  await response.arrayBuffer();
  if (response.status >= 300) {
    stop = true;
    await Promise.all(polls);
    throw new Error(`revoking ${keyId} answered ${response.status}`);
  }
  const felt = await Promise.all(polls);
  return { feltAfterMs: felt.map((at) => at - (answeredAt as number)), revokeMs: answeredAt - sentAt };
}
