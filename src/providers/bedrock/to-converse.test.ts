import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../../core/chat.js';
import type { Attempt, ChannelConfig } from '../types.js';
import { regionOf } from './bedrock-target.js';
import { toConverse } from './to-converse.js';

function testAttempt(upstreamModel = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0'): Attempt & { warnings: string[] } {
  const channel: ChannelConfig = { name: 'bedrock-test', provider: 'bedrock', baseUrl: '', apiKey: 'AKID:SECRET', headers: {}, timeoutMs: 5_000, options: {} };
  const warnings: string[] = [];
  return { channel, upstreamModel, signal: new AbortController().signal, requestId: 'req_test', warnings, warn: (message) => warnings.push(message) };
}

function request(extra: Partial<ChatRequest>): ChatRequest {
  return { model: 'claude', messages: [], stream: false, ...extra };
}

describe('toConverse', () => {
  it('sends images and documents as bytes and merges consecutive user turns', () => {
    const body = toConverse(
      request({
        messages: [
          { role: 'user', content: [{ type: 'image', source: { kind: 'base64', mediaType: 'image/png', data: 'iVBOR' } }] },
          { role: 'user', content: [{ type: 'document', source: { kind: 'text', text: 'notes' }, title: 'my_notes.txt' }] },
        ],
      }),
      testAttempt(),
    );
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { image: { format: 'png', source: { bytes: 'iVBOR' } } },
          { document: { format: 'txt', name: 'my notes txt', source: { bytes: Buffer.from('notes').toString('base64') } } },
        ],
      },
    ]);
  });

  it('refuses an image URL with a 400 naming the part', () => {
    const asked = request({ messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } }] }] });
    expect(() => toConverse(asked, testAttempt())).toThrow(expect.objectContaining({ status: 400, param: 'messages[0].content[0]' }));
  });

  it('maps tool choice and asks Claude, not Llama, for thinking', () => {
    const tools = [{ name: 'f', parameters: { type: 'object' } }];
    const claude = toConverse(
      request({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], tools, toolChoice: { type: 'required' }, thinkingBudget: 2048 }),
      testAttempt(),
    );
    expect(claude.toolConfig).toEqual({ tools: [{ toolSpec: { name: 'f', inputSchema: { json: { type: 'object' } } } }], toolChoice: { any: {} } });
    expect(claude.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 2048 } });
    const llama = testAttempt('meta.llama3-3-70b-instruct-v1:0');
    const sent = toConverse(request({ messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], thinkingBudget: 2048, seed: 1 }), llama);
    expect(sent).not.toHaveProperty('additionalModelRequestFields');
    expect(llama.warnings).toEqual(['thinking: sent to Converse only for Anthropic models, dropped', 'seed: not supported by Converse, dropped']);
  });
});

describe('tool_choice none on Converse', () => {
  const tools = [{ name: 'get_weather', parameters: { type: 'object' } }];
  const question: ChatRequest['messages'][number] = { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] };
  const history: ChatRequest['messages'] = [
    question,
    { role: 'assistant', content: [{ type: 'tool_call', id: 'tu_1', name: 'get_weather', arguments: '{"city":"Paris"}' }] },
    { role: 'user', content: [{ type: 'tool_result', toolCallId: 'tu_1', content: '18°C' }] },
  ];

  it('sends no toolConfig when the conversation holds no tool blocks, without a warning', () => {
    const attempt = testAttempt();
    const body = toConverse(request({ messages: [question], tools, toolChoice: { type: 'none' } }), attempt);
    expect(body).not.toHaveProperty('toolConfig');
    expect(attempt.warnings).toEqual([]);
  });

  it('declares only a placeholder tool, never the offered ones, when the conversation holds tool blocks', () => {
    const attempt = testAttempt();
    const body = toConverse(request({ messages: history, tools, toolChoice: { type: 'none' } }), attempt);
    expect(body.toolConfig).toEqual({
      tools: [
        {
          toolSpec: {
            name: 'gengate_no_tool',
            description: expect.stringContaining('Never call this tool'),
            inputSchema: { json: { type: 'object', properties: {} } },
          },
        },
      ],
    });
    expect(attempt.warnings).toEqual([expect.stringMatching(/^tool_choice: none has no Converse counterpart; the tools were withheld/)]);
  });

  it('declares the placeholder when tool blocks come without any tools offered', () => {
    const attempt = testAttempt();
    const body = toConverse(request({ messages: history }), attempt);
    expect((body.toolConfig as { tools: Array<{ toolSpec: { name: string } }> }).tools.map((tool) => tool.toolSpec.name)).toEqual(['gengate_no_tool']);
    expect(attempt.warnings).toEqual([]);
  });
});

describe('AWS region', () => {
  const channel = (apiKey: string, options: Record<string, unknown> = {}): ChannelConfig => ({
    name: 'c',
    provider: 'bedrock',
    baseUrl: '',
    apiKey,
    headers: {},
    timeoutMs: 1000,
    options,
  });

  it('takes the region from the channel, else AWS_REGION, and refuses anything else', () => {
    expect(regionOf(channel('', { region: 'eu-central-1' }), { AWS_REGION: 'us-east-1' })).toBe('eu-central-1');
    expect(regionOf(channel(''), { AWS_DEFAULT_REGION: 'ap-southeast-2' })).toBe('ap-southeast-2');
    expect(() => regionOf(channel('', { region: 'evil.example.com/' }), {})).toThrow(/must be an AWS region/);
  });
});
