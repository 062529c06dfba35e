/**
 * Finding 12 of issue 23: `trustProxy: true` believed every X-Forwarded-For hop, so a client
 * behind the proxy chose its own address with a leading entry, and the per-address sign-in
 * limit was gone. Requests come through Fastify's inject from the proxy's address.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { PROVIDER_DESCRIPTORS } from '../../src/providers/registry.js';

const PROXY = '10.0.0.2';

describe('finding 12: trusted proxy hops', () => {
  let running: RunningGateway;
  beforeAll(async () => {
    // Fastify's inject has no real socket, which the body idle timer needs.
    running = await startGateway({ server: { trustProxy: 1, bodyIdleTimeoutMs: 0 } });
  });
  afterAll(() => running.close());

  const signIn = (email: string, forwardedFor: string) =>
    running.gateway.http.inject({
      method: 'POST',
      url: '/admin/v1/session',
      payload: { email, password: 'not the password' },
      remoteAddress: PROXY,
      headers: { 'x-forwarded-for': forwardedFor },
    });

  it('finding 12: server.trustProxy true is refused with a message that says what to set instead', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gengate-trust-proxy-'));
    const file = join(dir, 'gengate.yaml');
    writeFileSync(file, 'server:\n  trustProxy: true\n');
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: {}, configPath: file })).toThrow(/number of proxies/);
    await expect(startGateway({ server: { trustProxy: true as unknown as number } })).rejects.toThrow(/number of proxies/);
  });

  it('finding 12: with one trusted hop, a forged leading X-Forwarded-For entry does not reset the per-address sign-in limit', async () => {
    const client = '198.51.100.7';
    // Seventeen earlier failures of this client, then three more, each with another forged entry.
    const at = Date.now();
    await running.gateway.store.db
      .insertInto('login_failures')
      .values(Array.from({ length: 17 }, (_, i) => ({ email: `earlier-${i}@example.com`, ip: client, at })))
      .execute();
    for (let i = 17; i < 20; i++) {
      const answer = await signIn(`someone-${i}@example.com`, `203.0.113.${i + 1}, ${client}`);
      expect(answer.statusCode).toBe(401);
    }
    const blocked = await signIn('someone-20@example.com', `203.0.113.99, ${client}`);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().error.code).toBe('too_many_attempts');
    // Another client behind the same proxy is counted on its own address, not the proxy's.
    expect((await signIn('someone-21@example.com', '198.51.100.8')).statusCode).toBe(401);
  });
});
