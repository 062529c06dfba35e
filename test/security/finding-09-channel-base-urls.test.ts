/**
 * Finding 9 of issue 23: channel base URLs could point at the cloud metadata service and at
 * private networks, and the channel Test showed the start of whatever answered. Now: loopback is
 * allowed, other private networks only with `router.allowPrivateBaseUrls`, link-local and metadata
 * hosts never (YAML, environment, admin API; a stored channel saved before the rule still loads but
 * is refused when it connects), and the Test shows status and timing, not a body that is not JSON.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/load-config.js';
import { validateChannel } from '../../src/config/validate-config.js';
import { AdminClient } from '../admin/admin-client.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { PROVIDER_DESCRIPTORS } from '../../src/providers/registry.js';

const MASTER = 'gg-master-finding-09-0123456789';
const SECRET_KEY = Buffer.alloc(32, 9).toString('base64');
const PAGE = '<html><body>INTERNAL-ADMIN-CONSOLE: db password hunter2</body></html>';

const NEVER = [
  'http://169.254.169.254/',
  'http://[fd00:ec2::254]/',
  'http://metadata.google.internal/computeMetadata/v1',
  'http://[::ffff:169.254.169.254]/',
  'http://2852039166/',
  'http://[fe80::1]:8080/v1',
];
const PRIVATE = ['http://10.0.0.5/', 'http://192.168.1.20:8000/v1', 'http://[fd12:3456::1]/'];

const dir = mkdtempSync(join(tmpdir(), 'gengate-finding-09-'));

function yamlWith(baseUrl: string, allowPrivate?: boolean): string {
  const path = join(dir, `gengate-${Math.random().toString(36).slice(2)}.yaml`);
  const router = allowPrivate === undefined ? '' : `router:\n  allowPrivateBaseUrls: ${allowPrivate}\n`;
  writeFileSync(path, `${router}channels:\n  - name: c\n    provider: openai\n    baseUrl: "${baseUrl}"\n    apiKey: sk-x\n    models: ["m"]\n`);
  return path;
}

function loadError(configPath: string, env: Record<string, string> = {}): string | undefined {
  try {
    loadConfig({ providers: PROVIDER_DESCRIPTORS, env, configPath });
    return undefined;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.message;
  }
}

/** An upstream that answers every request with `status` and `body` of `type`. */
async function fakeUpstream(status: number, type: string, body: string): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(status, { 'content-type': type }).end(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('finding 9: channel base URLs never reach metadata, private networks only by choice', () => {
  it('finding 9: YAML validation refuses metadata and link-local hosts always, private networks unless allowed, and takes loopback', () => {
    for (const url of NEVER) {
      expect(loadError(yamlWith(url)), url).toMatch(/channels\[0\]\.baseUrl .*metadata/);
      expect(loadError(yamlWith(url, true)), url).toMatch(/metadata/);
    }
    for (const url of PRIVATE) {
      expect(loadError(yamlWith(url)), url).toMatch(/private network.*allowPrivateBaseUrls/);
      expect(loadError(yamlWith(url, true)), url).toBeUndefined();
      expect(loadError(yamlWith(url), { GENGATE_ALLOW_PRIVATE_BASE_URLS: 'true' }), url).toBeUndefined();
    }
    for (const url of ['http://127.0.0.1:8080/v1', 'http://localhost:11434/v1', 'http://[::1]:8000', 'https://api.openai.com/v1']) {
      expect(loadError(yamlWith(url)), url).toBeUndefined();
    }
    // The environment presets are held to the same rule.
    expect(() => loadConfig({ providers: PROVIDER_DESCRIPTORS, env: { OPENAI_API_KEY: 'sk-x', OPENAI_BASE_URL: 'http://169.254.169.254/v1' } })).toThrow(
      /OPENAI_BASE_URL .*metadata/,
    );
  });

  describe('through the admin API', () => {
    let running: RunningGateway;
    let admin: AdminClient;
    const servers: Server[] = [];

    beforeAll(async () => {
      running = await startGateway({ masterKey: MASTER, secretKey: SECRET_KEY, sandbox: { enabled: false } });
      admin = new AdminClient(running.url, MASTER);
    });
    afterAll(async () => {
      await running?.close();
      for (const server of servers) server.close();
    });

    const channel = (name: string, baseUrl: string) => ({ name, provider: 'openai', baseUrl, apiKey: 'sk-test-0000', models: [`${name}-model`] });

    it('finding 9: refuses metadata and private base URLs with a 400 naming the field, and takes loopback', async () => {
      for (const [i, url] of [...NEVER, ...PRIVATE].entries()) {
        const answer = await admin.call('POST', '/channels', channel(`bad-${i}`, url));
        expect(answer.status, url).toBe(400);
        expect(answer.body.error).toMatchObject({ code: 'invalid_channel', message: expect.stringMatching(/^channel\.baseUrl /) });
      }
      expect((await admin.call('GET', '/channels')).body.data.map((c: { name: string }) => c.name)).not.toContain('bad-0');
      const local = await admin.call('POST', '/channels', channel('local', 'http://127.0.0.1:9/v1'));
      expect(local.status).toBe(201);
      const moved = await admin.call('PATCH', '/channels/local', { baseUrl: 'http://169.254.169.254/v1' });
      expect(moved.status).toBe(400);
    });

    it('finding 9: the channel Test shows status and timing, never the body of an answer that is not JSON', async () => {
      const html = await fakeUpstream(200, 'text/html', PAGE);
      const html404 = await fakeUpstream(404, 'text/html', PAGE);
      const json404 = await fakeUpstream(404, 'application/json', JSON.stringify({ error: { message: 'The model does not exist.', type: 'not_found' } }));
      servers.push(html.server, html404.server, json404.server);
      for (const [name, upstream] of [
        ['html-200', html],
        ['html-404', html404],
        ['json-404', json404],
      ] as const) {
        expect((await admin.call('POST', '/channels', channel(name, `${upstream.url}/v1`))).status).toBe(201);
      }

      const page = await admin.call('POST', '/channels/html-200/test', {});
      expect(page.status).toBe(200);
      expect(page.body).toMatchObject({ ok: false, status: expect.any(Number), latencyMs: expect.any(Number) });
      expect(JSON.stringify(page.body)).not.toMatch(/INTERNAL-ADMIN-CONSOLE|hunter2|<html/);

      const missing = await admin.call('POST', '/channels/html-404/test', {});
      expect(missing.body).toMatchObject({ ok: false, status: 404, latencyMs: expect.any(Number) });
      expect(missing.body.message).toMatch(/HTTP 404/);
      expect(JSON.stringify(missing.body)).not.toMatch(/INTERNAL-ADMIN-CONSOLE|hunter2|<html/);

      // A JSON error document's message is what an admin needs to fix the channel: shown, bounded.
      const json = await admin.call('POST', '/channels/json-404/test', {});
      expect(json.body).toMatchObject({ ok: false, status: 404 });
      expect(json.body.message).toContain('The model does not exist.');
    });
  });

  it('finding 9: a channel stored before the rule still loads, and is refused when it connects', async () => {
    const databaseUrl = `sqlite:${join(dir, 'stored.db')}`;
    const first = await startGateway({ masterKey: MASTER, secretKey: SECRET_KEY, databaseUrl, sandbox: { enabled: false } });
    // Saved the way an earlier version did: without today's host rule. (A name, so that this test run
    // against code without the rule never sends anything to a real metadata service.)
    const old = validateChannel(
      { name: 'old-metadata', provider: 'openai', baseUrl: 'http://metadata.google.internal/v1', apiKey: 'sk-old', models: ['old-model'] },
      'stored',
      PROVIDER_DESCRIPTORS,
      { stored: true },
    );
    await first.gateway.channels.insert(old);
    await first.close();

    const second = await startGateway({ masterKey: MASTER, secretKey: SECRET_KEY, databaseUrl, sandbox: { enabled: false } });
    try {
      const admin = new AdminClient(second.url, MASTER);
      const listed = await admin.call('GET', '/channels');
      expect(listed.body.data.map((c: { name: string }) => c.name)).toContain('old-metadata');
      const started = performance.now();
      const tested = await admin.call('POST', '/channels/old-metadata/test', {});
      expect(tested.body).toMatchObject({ ok: false });
      expect(tested.body.message).toContain('EPRIVATEADDRESS');
      expect(performance.now() - started).toBeLessThan(5_000);
      const call = await fetch(`${second.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${second.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'old-model', messages: [{ role: 'user', content: 'hi' }] }),
      });
      expect(call.status).toBe(502);
      expect(await call.text()).toContain('EPRIVATEADDRESS');
    } finally {
      await second.close();
    }
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));
});
