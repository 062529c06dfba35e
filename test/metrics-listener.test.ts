/**
 * Where `/metrics` is served: a listener of its own (nothing else there, no token), never the
 * main port without a token; and nothing at all, not even timing headers, when both are off.
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { parsePrometheusText } from './helpers/prometheus-text.js';
import { type RunningGateway, startGateway } from './helpers/start-gateway.js';

let gw: RunningGateway | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

const chat = (running: RunningGateway) =>
  fetch(`${running.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${running.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'textmodel-b-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
  });

describe('metrics listener', { timeout: 60_000 }, () => {
  it('serves /metrics on its own address, and nothing on the main port', async () => {
    gw = await startGateway({ metrics: { enabled: true, listen: { host: '127.0.0.1', port: 0 } } });
    const url = gw.gateway.metricsUrl;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await chat(gw)).status).toBe(200);
    const scrape = await fetch(`${url}/metrics`);
    expect(scrape.status).toBe(200);
    const text = parsePrometheusText(await scrape.text());
    expect(text.sum('gengate_requests_total', { surface: 'openai', status_class: '2xx' })).toBe(1);
    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/metrics`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${gw.url}/metrics`)).status).toBe(404);
  });

  it('closes with the gateway', async () => {
    const running = await startGateway({ metrics: { enabled: true, listen: { host: '127.0.0.1', port: 0 } } });
    const url = running.gateway.metricsUrl;
    await running.close();
    await expect(fetch(`${url}/metrics`)).rejects.toThrow();
  });
});

describe('metrics off', { timeout: 60_000 }, () => {
  it('serves no /metrics and starts no listener; answers keep their timing headers', async () => {
    gw = await startGateway();
    expect(gw.gateway.metricsUrl).toBeUndefined();
    expect((await fetch(`${gw.url}/metrics`)).status).toBe(404);
    const answer = await chat(gw);
    expect(answer.headers.get('server-timing')).toMatch(/^gateway;dur=[\d.]+, upstream;dur=[\d.]+, ttfb;dur=[\d.]+$/);
    expect(Number(answer.headers.get('x-gengate-overhead-ms'))).toBeGreaterThanOrEqual(0);
  });

  it('writes the overhead in the access log line, as the header says it', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    });
    gw = await startGateway({ accessLog: true, logger: pino({ level: 'info' }, sink) });
    const answer = await chat(gw);
    const requestId = answer.headers.get('x-request-id');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const line = lines.find((entry) => entry.msg === 'request' && entry.reqId === requestId);
    expect(line?.overheadMs).toBe(answer.headers.get('x-gengate-overhead-ms'));
  });

  it('with timing headers off too, adds nothing to an answer', async () => {
    gw = await startGateway({ metrics: { enabled: false, timingHeaders: false } });
    const answer = await chat(gw);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('server-timing')).toBeNull();
    expect(answer.headers.get('x-gengate-overhead-ms')).toBeNull();
  });
});
