import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChatEvent, ChatRequest, ChatResponse } from '../../core/chat.js';
import { fitToolNames, restoreToolNames, restoreToolNamesInStream, shortToolName, type ToolNameRules } from './fit-tool-names.js';

const OPENAI: ToolNameRules = { maxLength: 64, allowed: /[a-zA-Z0-9_-]/ };
const GEMINI: ToolNameRules = { maxLength: 64, allowed: /[a-zA-Z0-9_-]/, first: /[a-zA-Z_]/ };
const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

const LONG = 'mcp__github_enterprise_server__create_pull_request_review_comment_with_suggestions';
const hex8 = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 8);

describe('shortToolName', () => {
  it('keeps a name that fits', () => {
    expect(shortToolName('read_file', OPENAI)).toBe('read_file');
    expect(shortToolName('mcp__fs__read', OPENAI)).toBe('mcp__fs__read');
  });

  it('cuts an over-long name to 64 characters ending in a hash of the whole name', () => {
    const short = shortToolName(LONG, OPENAI);
    expect(short).toMatch(VALID);
    expect(short).toHaveLength(64);
    expect(short).toBe(`${LONG.slice(0, 55)}_${hex8(LONG)}`);
  });

  it('replaces characters outside the allowed set, and two names differing only there stay apart', () => {
    const dotted = shortToolName('files.read', OPENAI);
    const coloned = shortToolName('files:read', OPENAI);
    expect(dotted).toBe(`files_read_${hex8('files.read')}`);
    expect(dotted).toMatch(VALID);
    expect(coloned).not.toBe(dotted);
  });

  it('gives Gemini a first letter or underscore', () => {
    expect(shortToolName('3d_render', GEMINI)).toMatch(/^[a-zA-Z_]/);
    expect(shortToolName('3d_render', OPENAI)).toBe('3d_render');
  });
});

const request = (): ChatRequest => ({
  model: 'm',
  stream: false,
  tools: [
    { name: LONG, parameters: { type: 'object' } },
    { name: 'read_file', parameters: { type: 'object' } },
  ],
  toolChoice: { type: 'tool', name: LONG },
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'go' }] },
    { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: LONG, arguments: '{}' }] },
    { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', name: LONG, content: 'done' }] },
  ],
});

describe('fitToolNames', () => {
  it('renames definitions, choice, calls and results alike, and leaves fitting names alone', () => {
    const { request: fitted, names } = fitToolNames(request(), OPENAI);
    const short = shortToolName(LONG, OPENAI);
    expect(fitted.tools!.map((tool) => tool.name)).toEqual([short, 'read_file']);
    expect(fitted.toolChoice).toEqual({ type: 'tool', name: short });
    expect(fitted.messages[1].content[0]).toMatchObject({ type: 'tool_call', name: short });
    expect(fitted.messages[2].content[0]).toMatchObject({ type: 'tool_result', name: short });
    expect(names.restore(short)).toBe(LONG);
    expect(names.restore('read_file')).toBe('read_file');
  });

  it('tool results that name a renamed tool (a tool search’s answer) name it as the target knows it', () => {
    const searched: ChatRequest = {
      model: 'm',
      stream: false,
      tools: [{ name: LONG, parameters: {} }],
      messages: [
        { role: 'assistant', content: [{ type: 'tool_call', id: 's', name: 'ToolSearch', arguments: '{}' }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 's', content: [{ type: 'text', text: `Tool ${LONG} is now available.` }] }] },
        { role: 'tool', content: [{ type: 'tool_result', toolCallId: 't', content: `found ${LONG}` }] },
      ],
    };
    const { request: fitted } = fitToolNames(searched, OPENAI);
    const short = shortToolName(LONG, OPENAI);
    expect(fitted.messages[1].content[0]).toMatchObject({ content: [{ type: 'text', text: `Tool ${short} is now available.` }] });
    expect(fitted.messages[2].content[0]).toMatchObject({ content: `found ${short}` });
  });

  it('changes nothing, and maps nothing, when every name fits', () => {
    const plain: ChatRequest = { model: 'm', stream: false, tools: [{ name: 'ls', parameters: {} }], messages: [] };
    const { request: fitted, names } = fitToolNames(plain, OPENAI);
    expect(fitted).toBe(plain);
    expect(names.originals.size).toBe(0);
  });

  it('a short name never takes a name the client already uses', () => {
    const taken = shortToolName('a.b', OPENAI);
    const clash: ChatRequest = {
      model: 'm',
      stream: false,
      tools: [
        { name: 'a.b', parameters: {} },
        { name: taken, parameters: {} },
      ],
      messages: [],
    };
    const { request: fitted, names } = fitToolNames(clash, OPENAI);
    const sent = fitted.tools!.map((tool) => tool.name);
    expect(new Set(sent).size).toBe(2);
    expect(sent[1]).toBe(taken);
    expect(names.restore(sent[0])).toBe('a.b');
  });
});

describe('restoring the client’s names', () => {
  const { names } = fitToolNames(request(), OPENAI);
  const short = shortToolName(LONG, OPENAI);

  it('in a whole answer, other choices included', () => {
    const response: ChatResponse = {
      id: 'r',
      model: 'm',
      created: 0,
      finishReason: 'tool_calls',
      content: [{ type: 'tool_call', id: 'x', name: short, arguments: '{}' }],
      otherChoices: [{ finishReason: 'tool_calls', content: [{ type: 'tool_call', id: 'y', name: short, arguments: '{}' }] }],
      usage: { inputTokens: 1, outputTokens: 1 },
    };
    const restored = restoreToolNames(response, names);
    expect(restored.content[0]).toMatchObject({ name: LONG });
    expect(restored.otherChoices![0].content[0]).toMatchObject({ name: LONG });
  });

  it('in a stream', async () => {
    async function* upstream(): AsyncIterable<ChatEvent> {
      yield { type: 'tool_call_start', index: 0, id: 'x', name: short };
      yield { type: 'tool_call_delta', index: 0, argumentsDelta: '{}' };
      yield { type: 'tool_call_start', index: 1, id: 'y', name: 'read_file' };
    }
    const seen: ChatEvent[] = [];
    for await (const event of restoreToolNamesInStream(upstream(), names)) seen.push(event);
    expect(seen.filter((event) => event.type === 'tool_call_start').map((event) => (event as { name: string }).name)).toEqual([LONG, 'read_file']);
    expect(seen).toHaveLength(3);
  });
});
