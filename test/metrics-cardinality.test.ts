/**
 * Label cardinality is bounded by configuration, never by client input: 10,000 calls naming
 * random models (served by a wildcard channel, or unknown) add no series to `/metrics`.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheusText } from './helpers/prometheus-text.js';
import { type RunningGateway, startGateway } from './helpers/start-gateway.js';

const TOKEN = 'metrics-token-0123456789';
let gw: RunningGateway;

beforeAll(async () => {
  gw = await startGateway({
    metrics: { enabled: true, token: TOKEN },
    // The sandbox answers at once: the test measures labels, not an upstream.
    channels: [{ name: 'wildcard', provider: 'sandbox', models: ['rnd-*'] }],
  });
});
afterAll(async () => {
  await gw?.close();
});

/** Every series of gengate's own and the GenAI families (process metrics come and go with the runtime). */
async function ownSeries(): Promise<string[]> {
  const response = await fetch(`${gw.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  const { samples } = parsePrometheusText(await response.text());
  return samples
    .filter((sample) => /^(gengate_|gen_ai_)/.test(sample.name))
    .map((sample) => `${sample.name}${JSON.stringify(sample.labels)}`)
    .sort();
}

async function callWithRandomModel(i: number): Promise<number> {
  // Half served by the wildcard channel, half unknown to every channel.
  const model = `${i % 2 === 0 ? 'rnd-' : ''}${randomBytes(6).toString('hex')}`;
  const response = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('label cardinality', () => {
  it('10,000 calls with random model names add no series', async () => {
    for (let i = 0; i < 4; i++) await callWithRandomModel(i);
    // A scrape is itself an answer of the main port, counted from the second on.
    await ownSeries();
    const before = await ownSeries();
    expect(before.some((series) => series.includes('"model":"other"') && series.includes('"channel":"wildcard"'))).toBe(true);
    const statuses = new Map<number, number>();
    const total = 10_000;
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < total) {
          const status = await callWithRandomModel(next++);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    expect(Object.fromEntries(statuses)).toEqual({ 200: total / 2, 404: total / 2 });
    expect(await ownSeries()).toEqual(before);
  }, 240_000);
});
