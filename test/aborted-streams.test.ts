/**
 * Finding 12: a stream the client abandons is billed for what was produced and recorded as the
 * client's disconnect — translated (sandbox) and passed through (OpenAI upstream) alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAIUpstream, type FakeOpenAIUpstream } from './fakes/fake-openai-upstream.js';
import { openaiUpChannel } from './helpers/fake-channels.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

let upstream: FakeOpenAIUpstream;
let sandboxGw: RunningGateway;
let relayGw: RunningGateway;

beforeAll(async () => {
  upstream = await startFakeOpenAIUpstream({ slowChunkDelayMs: 40 });
  sandboxGw = await startGateway({ sandbox: { tokensPerSecond: 40, firstTokenDelayMs: 0 } });
  relayGw = await startGateway({
    channels: [openaiUpChannel(upstream, { name: 'openai' })],
  });
});
afterAll(async () => {
  await sandboxGw.close();
  await relayGw.close();
  await upstream.close();
});

/** Starts a stream, reads until `chunks` data frames arrived, then goes away. */
async function readThenAbandon(gw: RunningGateway, headers: Record<string, string>, chunks: number): Promise<string> {
  const controller = new AbortController();
  const res = await fetch(`${gw.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${gw.key}`, ...headers },
    body: JSON.stringify({
      model: 'textmodel-b-4o',
      stream: true,
      messages: [{ role: 'user', content: 'Tell me a long story about a lighthouse keeper and the sea, with many details.' }],
    }),
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  const reader = res.body!.getReader();
  let text = '';
  let frames = 0;
  while (frames < chunks) {
    const { value, done } = await reader.read();
    if (done) throw new Error('the stream ended before the client left');
    const piece = new TextDecoder().decode(value);
    text += piece;
    frames += piece.split('\n\n').filter((frame) => frame.startsWith('data: {')).length;
  }
  controller.abort();
  return text;
}

async function lastRow(gw: RunningGateway) {
  let row: Awaited<ReturnType<RunningGateway['gateway']['usage']['recent']>>[number] | undefined;
  await expect
    .poll(async () => {
      await gw.gateway.recorder.flush();
      row = (await gw.gateway.usage.recent(1))[0];
      return row?.outcome;
    })
    .toBe('client_closed');
  return row!;
}

describe('finding 12: aborted streams are billed for what was produced', () => {
  it('translated (sandbox): outcome client_closed, input and the streamed output counted', async () => {
    await readThenAbandon(sandboxGw, {}, 6);
    const row = await lastRow(sandboxGw);
    expect(row.input_tokens).toBeGreaterThan(0);
    expect(row.output_tokens).toBeGreaterThan(0);
    expect(row.stream).toBe(1);
  });

  it('passed through (OpenAI upstream): outcome client_closed, the relayed output counted', async () => {
    upstream.setNext('slow-stream');
    await readThenAbandon(relayGw, {}, 3);
    const row = await lastRow(relayGw);
    expect(row.channel).toBe('openai');
    expect(row.output_tokens).toBeGreaterThan(0);
    expect(row.input_tokens).toBeGreaterThan(0);
  });
});
