/**
 * What the coding agents (Claude Code, Gemini CLI, Codex, opencode) send, translated to other
 * vendors through the official SDKs against the faithful fakes: fields fitted to the target's
 * documented limits (output cap, end-user id, tool names — restored in the answer), Claude
 * Code's tool search (tool_reference blocks, defer_loading tools) on translated routes and in
 * count_tokens, its pass-through to Anthropic untouched, and Gemini's countTokens admitting
 * every model generateContent serves.
 */
import { createHash } from 'node:crypto';
import Anthropic from '@anthropic-ai/sdk';
import { ApiError } from '@google/genai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicUpChannel, type FakeUpstreams, geminiUpChannel, openaiUpChannel, startFakeUpstreams } from './helpers/fake-channels.js';
import { gatewayClients, sendAnthropicMessage } from './helpers/sdk-clients.js';
import { type RunningGateway, startGateway } from './helpers/start-gateway.js';

let fakes: FakeUpstreams;
let gw: RunningGateway;

const OPENAI_MODEL = 'textmodel-b-4o'; // catalog output limit: 16,384
const ANTHROPIC_MODEL = 'textmodel-a-sonnet-4-20250514';
const GEMINI_MODEL = 'textmodel-c-2.5-flash';

beforeAll(async () => {
  fakes = await startFakeUpstreams();
  gw = await startGateway({
    channels: [
      openaiUpChannel(fakes.openai),
      anthropicUpChannel(fakes.anthropic),
      // Real Gemini names too, as a GEMINI_API_KEY channel serves them (`gemini-*`).
      geminiUpChannel(fakes.gemini, { models: ['textmodel-c-*', 'gemini-*'] }),
    ],
  });
});
afterAll(async () => {
  await gw.close();
  await fakes.close();
});

const { gemini } = gatewayClients(() => gw);
// An explicit timeout: the SDK refuses a non-streamed max_tokens of 32000 without one.
const anthropic = () => new Anthropic({ baseURL: gw.url, apiKey: gw.key, maxRetries: 0, timeout: 60_000 });
const lastBody = <T>(up: { requests: Array<{ body: unknown }> }) => up.requests.at(-1)!.body as T;

// What Claude Code sends: a ~150-character metadata.user_id, max_tokens 32000, MCP tools with long names.
const CLAUDE_CODE_USER = `user_${'3f'.repeat(32)}_account_5c0b1e4e-2d6f-4b8a-9c3e-7a1d2b3c4d5e_session_9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b`;
const MCP_TOOL = 'mcp__github-enterprise-server__create_pull_request_review_comment_with_suggestions';
const SCHEMA = { type: 'object' as const, properties: { body: { type: 'string' } }, required: ['body'] };
const OPENAI_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function claudeCodeParams(model: string): Anthropic.MessageCreateParamsNonStreaming {
  return {
    model,
    max_tokens: 32_000,
    metadata: { user_id: CLAUDE_CODE_USER },
    tools: [{ name: MCP_TOOL, description: 'Comment on a pull request', input_schema: SCHEMA }],
    messages: [{ role: 'user', content: 'Leave a review comment' }],
  };
}

describe('Claude Code → an OpenAI model: every field with a documented limit is fitted', () => {
  for (const stream of [false, true]) {
    it(`${stream ? 'streamed' : 'whole'}: user hashed, max tokens clamped with a warning, the MCP tool renamed there and back`, async () => {
      const { message, headers } = await sendAnthropicMessage(anthropic(), claudeCodeParams(OPENAI_MODEL), stream);
      const sent = lastBody<{ user: string; max_completion_tokens: number; tools: Array<{ function: { name: string } }> }>(fakes.openai);
      expect(sent.user).toBe(`u-${createHash('sha256').update(CLAUDE_CODE_USER).digest('base64url')}`);
      expect(sent.max_completion_tokens).toBe(16_384);
      const upstreamName = sent.tools[0].function.name;
      expect(upstreamName).toMatch(OPENAI_NAME);
      expect(upstreamName).not.toBe(MCP_TOOL);
      const toolUse = message.content.find((block) => block.type === 'tool_use');
      expect(toolUse).toMatchObject({ type: 'tool_use', name: MCP_TOOL });
      expect(headers.get('x-gengate-warnings')).toContain('max_tokens: 32000 is above the output limit of textmodel-b-4o (16384 tokens); sent as 16384');
    });
  }

  it('the next turn replays the call under the same short name, and the conversation goes on', async () => {
    const first = await anthropic().messages.create(claudeCodeParams(OPENAI_MODEL));
    const call = first.content.find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use')!;
    const shortName = lastBody<{ tools: Array<{ function: { name: string } }> }>(fakes.openai).tools[0].function.name;
    const params = claudeCodeParams(OPENAI_MODEL);
    params.messages.push(
      { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'commented' }] },
    );
    const second = await anthropic().messages.create(params);
    expect(second.stop_reason).toBe('end_turn');
    const sent = lastBody<{ messages: Array<{ role: string; tool_calls?: Array<{ function: { name: string } }> }> }>(fakes.openai);
    expect(sent.messages.find((m) => m.role === 'assistant')!.tool_calls![0].function.name).toBe(shortName);
  });
});

describe('tool names fitted for Gemini and Anthropic targets too', () => {
  it('an MCP name over 64 characters to Gemini: a valid declaration, and the call comes back under the client’s name', async () => {
    const message = await anthropic().messages.create({ ...claudeCodeParams(GEMINI_MODEL), tool_choice: { type: 'any' } });
    const declared = lastBody<{ tools: Array<{ functionDeclarations: Array<{ name: string }> }> }>(fakes.gemini).tools[0].functionDeclarations[0].name;
    expect(declared.length).toBeLessThanOrEqual(64);
    expect(message.content.find((block) => block.type === 'tool_use')).toMatchObject({ name: MCP_TOOL });
  });

  it('a Gemini CLI tool named with a dot to Claude: a valid Anthropic name, the functionCall under the dotted name', async () => {
    const response = await gemini().models.generateContent({
      model: ANTHROPIC_MODEL,
      contents: 'Read the README',
      config: { tools: [{ functionDeclarations: [{ name: 'fs.read_file', description: 'Read a file', parametersJsonSchema: SCHEMA }] }] },
    });
    const sent = lastBody<{ tools: Array<{ name: string }> }>(fakes.anthropic).tools[0].name;
    expect(sent).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(response.functionCalls?.[0]?.name).toBe('fs.read_file');
  });
});

describe('Claude Code’s tool search', () => {
  const toolSearch = { name: 'ToolSearch', description: 'Search the deferred tools', input_schema: SCHEMA };
  const deferred = [
    { name: 'mcp__github__create_issue', description: 'Create an issue', input_schema: SCHEMA, defer_loading: true },
    { name: 'mcp__slack__post_message', description: 'Post a message', input_schema: SCHEMA, defer_loading: true },
  ];
  const afterSearch = [
    { role: 'user' as const, content: 'File an issue about the crash' },
    { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'toolu_search1', name: 'ToolSearch', input: { body: 'github issue' } }] },
    {
      role: 'user' as const,
      content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_search1', content: [{ type: 'tool_reference', tool_name: 'mcp__github__create_issue' }] }],
    },
  ];
  // The SDK's types predate tool search; the body is what Claude Code sends.
  const body = (model: string) => ({ model, max_tokens: 1024, tools: [toolSearch, ...deferred], messages: afterSearch }) as never;

  async function post(path: string, payload: unknown): Promise<Response> {
    return fetch(`${gw.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': gw.key, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'advanced-tool-use-2025-11-20' },
      body: JSON.stringify(payload),
    });
  }

  it('to OpenAI: the referenced tool is offered, the unreferenced deferred one withheld, the reference read as text', async () => {
    const message = await anthropic().messages.create(body(OPENAI_MODEL));
    expect(message.content.length).toBeGreaterThan(0);
    const sent = lastBody<{ tools: Array<{ function: { name: string } }>; messages: Array<{ role: string; content: unknown }> }>(fakes.openai);
    expect(sent.tools.map((tool) => tool.function.name)).toEqual(['ToolSearch', 'mcp__github__create_issue']);
    expect(sent.messages.find((m) => m.role === 'tool')!.content).toBe('Tool mcp__github__create_issue is now available.');
  });

  it('to Gemini, streamed: the same declarations, and the answer streams', async () => {
    const { message } = await sendAnthropicMessage(anthropic(), body(GEMINI_MODEL), true);
    expect(message.stop_reason).toBe('end_turn');
    const declared = lastBody<{ tools: Array<{ functionDeclarations: Array<{ name: string }> }> }>(fakes.gemini).tools[0].functionDeclarations;
    expect(declared.map((d) => d.name)).toEqual(['ToolSearch', 'mcp__github__create_issue']);
  });

  it('count_tokens accepts them for every model', async () => {
    for (const model of [OPENAI_MODEL, ANTHROPIC_MODEL, GEMINI_MODEL]) {
      const { max_tokens: _, ...countBody } = body(model) as Record<string, unknown>;
      const response = await post('/v1/messages/count_tokens', countBody);
      expect(response.status, model).toBe(200);
      expect(((await response.json()) as { input_tokens: number }).input_tokens).toBeGreaterThan(0);
    }
  });

  it('same-dialect pass-through relays tool_reference and defer_loading untouched', async () => {
    const response = await post('/v1/messages', body(ANTHROPIC_MODEL));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-gengate-route')).toBe('passthrough');
    const sent = lastBody<{ tools: unknown[]; messages: unknown[] }>(fakes.anthropic);
    expect(sent.tools).toEqual([toolSearch, ...deferred]);
    expect(sent.messages).toEqual(afterSearch);
    expect(fakes.anthropic.requests.at(-1)!.headers['anthropic-beta']).toBe('advanced-tool-use-2025-11-20');
  });
});

describe('Gemini countTokens resolves models as generateContent does', () => {
  it('a real Gemini name a channel serves (outside the catalog) is counted, not 404', async () => {
    const generated = await gemini().models.generateContent({ model: 'gemini-2.0-flash-001', contents: 'count me' });
    expect(generated.text).toBeTruthy();
    const counted = await gemini().models.countTokens({ model: 'gemini-2.0-flash-001', contents: 'count these words' });
    expect(counted.totalTokens).toBeGreaterThan(0);
  });

  it('a model nothing serves is still a 404 in Gemini’s shape', async () => {
    const error = await gemini()
      .models.countTokens({ model: 'nothing-serves-this-model', contents: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(404);
  });
});
