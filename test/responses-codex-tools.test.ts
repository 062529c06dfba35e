/**
 * The tool set Codex sends by default, on a translated upstream: the hosted `web_search` tool
 * is left out with a warning (a forced one is a 400), and the functions of its `namespace`
 * tool reach the upstream as `<namespace>__<name>` and come back to the client as `namespace`
 * + `name`, whole and streamed, and in a follow-up that answers the call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicUpChannel, startFakeUpstreams, type FakeUpstreams } from './helpers/fake-channels.js';
import { startGateway, type RunningGateway } from './helpers/start-gateway.js';

const CLAUDE = 'textmodel-a-haiku-4-5-20251001';
const TOOLS = [
  { type: 'web_search' },
  {
    type: 'namespace',
    name: 'multi_agent_v1',
    description: 'Sub-agents',
    tools: [
      {
        type: 'function',
        name: 'spawn_agent',
        description: 'Start a sub-agent',
        parameters: { type: 'object', properties: { task: { type: 'string' } }, required: ['task'] },
      },
    ],
  },
];

// biome-ignore lint/suspicious/noExplicitAny: answers are read field by field, as a client would
type Json = Record<string, any>;

describe("Codex's default tools on a translated (Anthropic) upstream", () => {
  let fakes: FakeUpstreams;
  let gw: RunningGateway;
  beforeAll(async () => {
    fakes = await startFakeUpstreams();
    gw = await startGateway({ channels: [anthropicUpChannel(fakes.anthropic)] });
  });
  afterAll(async () => {
    await gw?.close();
    await fakes?.close();
  });

  const post = (body: Json) =>
    fetch(`${gw.url}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('leaves web_search out with a warning and returns the namespaced call as namespace + name, then takes its output', async () => {
    const response = await post({ model: CLAUDE, input: 'Delegate the tests', tools: TOOLS });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gengate-warnings')).toContain('tools[0]: the hosted tool "web_search" was left out');
    const sent = fakes.anthropic.requests.at(-1)?.body as Json;
    expect(sent.tools.map((tool: Json) => tool.name)).toEqual(['multi_agent_v1__spawn_agent']);
    const created = (await response.json()) as Json;
    const call = created.output.find((item: Json) => item.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', namespace: 'multi_agent_v1', name: 'spawn_agent' });
    expect(JSON.parse(call.arguments)).toHaveProperty('task');

    const followUp = await post({
      model: CLAUDE,
      previous_response_id: created.id,
      tools: TOOLS,
      tool_choice: 'none',
      input: [{ type: 'function_call_output', call_id: call.call_id, output: 'sub-agent started' }],
    });
    expect(followUp.status).toBe(200);
    const resent = fakes.anthropic.requests.at(-1)?.body as Json;
    const assistant = resent.messages.find((message: Json) => message.role === 'assistant');
    expect(assistant.content).toContainEqual(expect.objectContaining({ type: 'tool_use', name: 'multi_agent_v1__spawn_agent', id: call.call_id }));
    expect(((await followUp.json()) as Json).status).toBe('completed');
  });

  it('streams the namespaced call with its namespace on the item events', async () => {
    const response = await post({ model: CLAUDE, input: 'Delegate the docs', tools: TOOLS, stream: true });
    expect(response.status).toBe(200);
    const events = (await response.text())
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as Json);
    const added = events.find((event) => event.type === 'response.output_item.added' && event.item.type === 'function_call');
    const done = events.find((event) => event.type === 'response.function_call_arguments.done');
    expect(added?.item).toMatchObject({ namespace: 'multi_agent_v1', name: 'spawn_agent' });
    expect(done?.name).toBe('spawn_agent');
    const completed = events.at(-1);
    expect(completed?.type).toBe('response.completed');
    expect(completed?.response.output.find((item: Json) => item.type === 'function_call')).toMatchObject({ namespace: 'multi_agent_v1', name: 'spawn_agent' });
  });

  it('refuses a tool_choice that forces a hosted tool, in OpenAI’s shape', async () => {
    const response = await post({ model: CLAUDE, input: 'Search', tools: TOOLS, tool_choice: { type: 'web_search' } });
    expect(response.status).toBe(400);
    const body = (await response.json()) as Json;
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: 'tool_choice.type' });
    expect(body.error.message).toContain('"web_search" is a hosted tool');
  });
});
