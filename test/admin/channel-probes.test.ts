/**
 * Channel probes end to end: a stored channel with `probe` set is probed on its interval; when
 * its upstream starts refusing the credentials, real calls and probes fail, its circuit opens
 * and, `autoEnable` set, the gateway disables it (audited); when the upstream recovers, a probe
 * re-enables it (audited) and closes the circuit. A channel an operator disabled stays off and
 * unprobed. `GET /channels/health` shows it all; probe settings out of bounds are 400s.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServer, readBody, sendJson } from '../fakes/fake-http.js';
import { type RunningGateway, startGateway } from '../helpers/start-gateway.js';
import { AdminClient } from './admin-client.js';

const MASTER = 'gg-master-probes-test-0123456789';
const UPSTREAM_KEY = 'sk-probes-upstream-key-0123456789';

interface Health {
  name: string;
  enabled: boolean;
  autoDisabled: boolean;
  breaker: string;
  probeOk: boolean | null;
  lastProbeAt: number | null;
  errorRate5m: number | null;
  calls5m: number;
  errors5m: number;
  recentProbes: Array<{ ok: boolean; errorType?: string; status?: number; message?: string }>;
}

/** An OpenAI-dialect upstream that answers, or refuses every key while `refusing` is set. */
async function startFlakyUpstream() {
  const state = { refusing: false, chats: new Map<string, number>() };
  const server: Server = createServer((req, res) => {
    void readBody(req).then((text) => {
      const model = String((JSON.parse(text) as { model?: unknown }).model);
      state.chats.set(model, (state.chats.get(model) ?? 0) + 1);
      if (state.refusing) {
        sendJson(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
        return;
      }
      sendJson(res, 200, {
        id: 'chatcmpl-1',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: 'gpt-4o-mini',
        choices: [{ index: 0, message: { role: 'assistant', content: 'pong' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { state, url, close: () => closeServer(server) };
}

async function until<T>(what: string, read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 8_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const METRICS_TOKEN = 'probe-metrics-token-0123456789';

describe('channel probes', () => {
  let upstream: Awaited<ReturnType<typeof startFlakyUpstream>>;
  let running: RunningGateway;
  let admin: AdminClient;

  beforeAll(async () => {
    upstream = await startFlakyUpstream();
    running = await startGateway({
      masterKey: MASTER,
      secretKey: Buffer.alloc(32, 7).toString('base64'),
      // The circuit opens after two failures and would stay open for a minute: only a probe can close it within the test.
      router: { failureThreshold: 2, cooldownMs: 60_000, allowPrivateBaseUrls: true },
      probeIntervalMs: 100,
      metrics: { enabled: true, token: METRICS_TOKEN },
    });
    admin = new AdminClient(running.url, MASTER);
  });
  afterAll(async () => {
    await running?.close();
    await upstream?.close();
  });

  const channel = (name: string, overrides: Record<string, unknown> = {}) => ({
    name,
    provider: 'openai',
    baseUrl: upstream.url,
    apiKey: UPSTREAM_KEY,
    models: [`${name}-model`],
    modelMap: { [`${name}-model`]: `${name}-upstream` },
    probe: { enabled: true, intervalSeconds: 15, autoEnable: true },
    ...overrides,
  });
  const health = async (name: string): Promise<Health> => {
    const answer = await admin.call('GET', '/channels/health');
    expect(answer.status).toBe(200);
    const found = (answer.body.data as Health[]).find((entry) => entry.name === name);
    if (!found) throw new Error(`no health for ${name}`);
    return found;
  };
  const ask = (model: string) =>
    fetch(`${running.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${running.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] }),
    });
  const auditActions = async (target: string) => {
    const audit = await admin.call('GET', '/audit?limit=200');
    return (audit.body.data as Array<{ action: string; target: string; actor: { kind: string } }>).filter((entry) => entry.target === target);
  };

  it('refuses probe settings out of bounds or unknown, naming the field', async () => {
    // No channel asks for probes yet: no probe timer at all.
    expect(running.gateway.channelHealth.probedChannels).toBe(0);
    for (const probe of [{ intervalSeconds: 14 }, { intervalSeconds: 3601 }, { intervalSeconds: 30.5 }, { autoEnable: 'yes' }, { every: 30 }, []]) {
      const answer = await admin.call('POST', '/channels', channel('bad', { probe }));
      expect(answer.status, JSON.stringify(probe)).toBe(400);
      expect(answer.body.error.message).toMatch(/probe/);
    }
    expect((await admin.call('GET', '/channels')).body.data.some((c: { name: string }) => c.name === 'bad')).toBe(false);
  });

  it('probes a channel on its interval and shows the results with the circuit state', async () => {
    const created = await admin.call('POST', '/channels', channel('flaky'));
    expect(created.status).toBe(201);
    expect(created.body.channel.probe).toEqual({ enabled: true, intervalSeconds: 15, autoEnable: true });
    const probed = await until(
      'three passing probes',
      () => health('flaky'),
      (h) => h.recentProbes.length >= 3,
    );
    expect(probed.recentProbes.every((probe) => probe.ok)).toBe(true);
    expect(probed).toMatchObject({ enabled: true, autoDisabled: false, breaker: 'closed', probeOk: true, calls5m: 0, errorRate5m: null });
    expect(Date.now() - (probed.lastProbeAt ?? 0)).toBeLessThan(5_000);
    expect(running.gateway.channelHealth.probedChannels).toBe(1);
    // The same verdict reaches /metrics.
    const scraped = await (await fetch(`${running.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    expect(scraped).toMatch(/^gengate_channel_probe_up\{channel="flaky"\} 1$/m);
    expect(scraped).toMatch(/^gengate_channel_probe_latency_seconds\{channel="flaky"\} \d/m);
  });

  it('counts real calls in the error rate, disables the channel after refused credentials, and re-enables it when a probe passes', async () => {
    expect((await ask('flaky-model')).status).toBe(200);
    upstream.state.refusing = true;
    const failed = await ask('flaky-model');
    expect(failed.status).toBeGreaterThanOrEqual(400);
    await failed.arrayBuffer();

    const disabled = await until(
      'the channel disabled by the gateway',
      () => health('flaky'),
      (h) => !h.enabled,
    );
    expect(disabled.autoDisabled).toBe(true);
    expect(disabled.breaker).toBe('open');
    expect(disabled.calls5m).toBe(2);
    expect(disabled.errors5m).toBe(1);
    expect(disabled.errorRate5m).toBe(0.5);
    expect(disabled.recentProbes[0]).toMatchObject({ ok: false, errorType: 'upstream.auth', status: 401 });
    expect(JSON.stringify(disabled)).not.toContain(UPSTREAM_KEY);
    const listed = (await admin.call('GET', '/channels')).body.data.find((c: { name: string }) => c.name === 'flaky');
    expect(listed).toMatchObject({ enabled: false, autoDisabled: true });
    expect((await ask('flaky-model')).status).toBe(404); // out of rotation: no channel serves the model
    expect((await auditActions('flaky')).map((entry) => entry.action)).toContain('channel.auto_disable');

    upstream.state.refusing = false;
    const back = await until(
      'the channel re-enabled by a probe',
      () => health('flaky'),
      (h) => h.enabled,
    );
    expect(back).toMatchObject({ autoDisabled: false, breaker: 'closed', probeOk: true });
    const reEnabled = (await auditActions('flaky')).find((entry) => entry.action === 'channel.auto_enable');
    expect(reEnabled?.actor.kind).toBe('system');
    expect((await ask('flaky-model')).status).toBe(200);
  });

  it('leaves a channel an operator disabled off and unprobed', async () => {
    expect((await admin.call('POST', '/channels', channel('manual'))).status).toBe(201);
    await until(
      'a first probe',
      () => health('manual'),
      (h) => h.recentProbes.length >= 1,
    );
    expect((await admin.call('PATCH', '/channels/manual', { enabled: false })).status).toBe(200);
    const sent = () => upstream.state.chats.get('manual-upstream') ?? 0;
    const before = sent();
    const probesBefore = (await health('manual')).recentProbes.length;
    await new Promise((resolve) => setTimeout(resolve, 600));
    const after = await health('manual');
    expect(after).toMatchObject({ enabled: false, autoDisabled: false });
    // Another probe may have been in flight when it was disabled, no more.
    expect(after.recentProbes.length).toBeLessThanOrEqual(probesBefore + 1);
    expect(sent() - before).toBeLessThanOrEqual(1);
  });

  it('removes the probes with `probe: null`', async () => {
    const answer = await admin.call('PATCH', '/channels/flaky', { probe: null });
    expect(answer.status).toBe(200);
    expect(answer.body.channel.probe).toBeNull();
    const probes = (await health('flaky')).recentProbes.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await health('flaky')).recentProbes.length).toBeLessThanOrEqual(probes + 1);
  });
});
