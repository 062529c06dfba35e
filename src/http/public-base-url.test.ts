import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { installPublicUrlSettings, publicBaseUrl } from './public-base-url.js';

async function baseFor(host: string, settings?: Parameters<typeof installPublicUrlSettings>[1]): Promise<string> {
  const app = Fastify();
  if (settings) installPublicUrlSettings(app, settings);
  app.get('/', async (request) => ({ base: publicBaseUrl(request) }));
  const answer = await app.inject({ method: 'GET', url: '/', headers: { host } });
  await app.close();
  return answer.json().base;
}

describe('publicBaseUrl', () => {
  it('keeps a localhost name or an allowed host, port included', async () => {
    expect(await baseFor('localhost:8080')).toBe('http://localhost:8080');
    expect(await baseFor('[::1]:8080')).toBe('http://[::1]:8080');
    expect(await baseFor('GW.Example.com', { allowedHosts: ['gw.example.com'] })).toBe('http://gw.example.com');
  });

  it('answers the address the connection reached for any other Host, however it is spelled', async () => {
    for (const host of ['evil.example', 'evil.example:443', 'gw.example.com.evil.example', 'evil.example/path', 'user@localhost', 'localhost evil']) {
      expect(await baseFor(host, { allowedHosts: ['gw.example.com'] })).toBe('http://127.0.0.1');
    }
  });

  it('answers the configured public URL whatever the Host', async () => {
    expect(await baseFor('evil.example', { publicBaseUrl: 'https://gw.example.com/base', allowedHosts: [] })).toBe('https://gw.example.com/base');
  });
});
