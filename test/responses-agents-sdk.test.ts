/**
 * The OpenAI Agents SDK (`@openai/agents`, which runs its agents on the Responses API) against the
 * gateway: an agent with a function tool runs its tool loop, and a second turn continues the
 * first with `previousResponseId` — on the sandbox and on the fake Anthropic upstream. Tracing is
 * off: nothing leaves the machine. Each case marks `tools` and `state` in its row of
 * docs/compatibility.md (section `sdks-agents`), checked by the last test.
 */
import { Agent, OpenAIProvider, Runner, setTracingDisabled, tool } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAnthropicUpstream, type FakeAnthropicUpstream } from './fakes/fake-anthropic-upstream.js';
import { anthropicUpChannel } from './helpers/fake-channels.js';
import { clientVersion, SdkMatrix } from './helpers/sdk-matrix.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

const matrix = new SdkMatrix('sdks-agents');

let anthropic: FakeAnthropicUpstream;
let gw: RunningGateway;

beforeAll(async () => {
  setTracingDisabled(true);
  anthropic = await startFakeAnthropicUpstream();
  gw = await startGateway({ channels: [anthropicUpChannel(anthropic)] });
});
afterAll(async () => {
  await gw?.close();
  await anthropic?.close();
});

const cases = [
  { where: 'the sandbox', model: 'textmodel-b-4o', upstream: 'sandbox' },
  { where: 'the fake Anthropic upstream', model: 'textmodel-a-sonnet-4-20250514', upstream: 'Anthropic' },
];

describe.each(cases)('an Agents SDK agent on $where', ({ model, upstream }) => {
  it('runs its function tool, answers, and continues the conversation with previousResponseId', async () => {
    matrix.covers({ client: clientVersion('@openai/agents'), surface: 'OpenAI Responses', upstream }, 'tools', 'state');
    const asked: string[] = [];
    const weather = tool({
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false },
      strict: true,
      execute: async (input) => {
        asked.push(String((input as { city: unknown }).city));
        return 'sunny, 21 °C';
      },
    });
    const agent = new Agent({ name: 'Weather helper', instructions: 'Answer weather questions with the tool.', model, tools: [weather] });
    const runner = new Runner({ modelProvider: new OpenAIProvider({ apiKey: gw.key, baseURL: `${gw.url}/v1`, useResponses: true }) });

    // The sandbox calls a tool under `auto` only when the prompt asks for it by name.
    const first = await runner.run(agent, 'Use get_weather for Paris, then tell me what to wear.');
    expect(asked).toHaveLength(1);
    expect(typeof first.finalOutput).toBe('string');
    expect((first.finalOutput as string).length).toBeGreaterThan(0);
    expect(first.lastResponseId).toMatch(/^resp_/);
    const kinds = first.newItems.map((item) => item.type);
    expect(kinds).toContain('tool_call_item');
    expect(kinds).toContain('tool_call_output_item');
    expect(kinds.at(-1)).toBe('message_output_item');

    const second = await runner.run(agent, 'Thanks. Should I take an umbrella?', { previousResponseId: first.lastResponseId });
    expect(typeof second.finalOutput).toBe('string');
    expect(second.lastResponseId).toMatch(/^resp_/);
    expect(second.lastResponseId).not.toBe(first.lastResponseId);
    // The gateway continued the stored conversation: walking back from the second turn's last response reaches the first's.
    const chain: string[] = [];
    let id: string | null | undefined = second.lastResponseId;
    while (id && chain.length < 6 && id !== first.lastResponseId) {
      chain.push(id);
      const stored = await fetch(`${gw.url}/v1/responses/${id}`, { headers: { authorization: `Bearer ${gw.key}` } });
      expect(stored.status).toBe(200);
      id = ((await stored.json()) as { previous_response_id: string | null }).previous_response_id;
    }
    expect(id).toBe(first.lastResponseId);
  }, 60_000);
});

describe('docs/compatibility.md', () => {
  it('holds the Agents SDK matrix of this run', (context) => {
    matrix.checkDocument(context);
  });
});
