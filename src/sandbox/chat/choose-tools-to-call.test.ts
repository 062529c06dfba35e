import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest, ToolChoice, ToolDefinition } from '../../core/chat.js';
import { createPrng } from '../shared/prng.js';
import { chooseToolsToCall } from './choose-tools-to-call.js';
import { inspectLastTurn } from './inspect-last-turn.js';

const OBJECT = { type: 'object', properties: {} };
const TOOLS: ToolDefinition[] = [
  { name: 'get_weather', description: 'Current weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  { name: 'search-flights', parameters: OBJECT },
  { name: 'Translate', parameters: OBJECT },
];
// What Gemini CLI and Codex hand the model.
const AGENT_TOOLS: ToolDefinition[] = [
  { name: 'list_directory', description: 'Lists the names of files and subdirectories directly within a specified directory path.', parameters: OBJECT },
  { name: 'read_file', description: 'Reads and returns the content of a specified file.', parameters: OBJECT },
  { name: 'run_shell_command', description: 'This tool executes a given shell command as `bash -c <command>`.', parameters: OBJECT },
  { name: 'write_file', description: 'Writes content to a specified file in the local filesystem.', parameters: OBJECT },
  { name: 'apply_patch', description: 'Use this tool to edit files.', parameters: OBJECT },
];

function user(text: string): ChatMessage {
  return { role: 'user', content: [{ type: 'text', text }] };
}

function plan(messages: ChatMessage[], toolChoice?: ToolChoice, parallelToolCalls?: boolean, tools = TOOLS) {
  const request: ChatRequest = { model: 'm', messages, tools, toolChoice, parallelToolCalls, stream: false };
  const chosen = chooseToolsToCall(request, inspectLastTurn(request), createPrng(1));
  return { call: chosen.call.map((t) => t.name), declined: chosen.declined.map((t) => t.name) };
}
const names = (...args: Parameters<typeof plan>) => plan(...args).call;

describe('chooseToolsToCall', () => {
  it('calls nothing without tools or with tool choice none', () => {
    expect(names([user('use get_weather please')], undefined, undefined, [])).toEqual([]);
    expect(names([user('use get_weather please')], { type: 'none' })).toEqual([]);
  });

  it('auto calls a read-only tool the user explicitly asks for, case-insensitively', () => {
    expect(names([user('please use get_weather for Oslo')])).toEqual(['get_weather']);
    expect(names([user('Call the tool `Search-Flights` now')], { type: 'auto' })).toEqual(['search-flights']);
    expect(names([user('try translate on this')])).toEqual(['Translate']);
  });

  it('an agent’s preamble asking for its tools is not the prompt: only the last, short text part can ask', () => {
    const preamble = 'Use list_directory and read_file to explore the project before answering.';
    const withContext: ChatMessage = {
      role: 'user',
      content: [
        { type: 'text', text: preamble },
        { type: 'text', text: 'What does this project do?' },
      ],
    };
    expect(names([withContext], undefined, undefined, AGENT_TOOLS)).toEqual([]);
    expect(names([user(`${preamble} ${'Context. '.repeat(40)}`)], undefined, undefined, AGENT_TOOLS)).toEqual([]);
    const asking: ChatMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'x'.repeat(1000) },
        { type: 'text', text: 'use read_file on README.md' },
      ],
    };
    expect(names([asking], undefined, undefined, AGENT_TOOLS)).toEqual(['read_file']);
  });

  it('auto answers with text when a tool is only mentioned, as agents’ preambles mention every tool', () => {
    expect(names([user('What is the weather in Oslo?')])).toEqual([]);
    expect(names([user('You can list_directory and read_file to explore the project. What does it do?')], undefined, undefined, AGENT_TOOLS)).toEqual([]);
    expect(names([user('Tell me a story')])).toEqual([]);
  });

  it('never invents a call to a tool that runs commands or changes files, even when asked; it is declined instead', () => {
    expect(plan([user('use run_shell_command to delete the build folder')], undefined, undefined, AGENT_TOOLS)).toEqual({
      call: [],
      declined: ['run_shell_command'],
    });
    expect(plan([user('call write_file, then use read_file')], { type: 'auto' }, true, AGENT_TOOLS)).toEqual({
      call: ['read_file'],
      declined: ['write_file'],
    });
  });

  it('auto calls at most one tool unless parallel tool calls are on', () => {
    const messages = [user('use get_weather, then use search-flights, then use translate')];
    expect(names(messages)).toEqual(['get_weather']);
    expect(names(messages, { type: 'auto' }, true)).toEqual(['get_weather', 'search-flights', 'Translate']);
  });

  it('auto answers with text after tool results', () => {
    const messages: ChatMessage[] = [
      user('use get_weather for Oslo'),
      { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'get_weather', arguments: '{}' }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: 'rain' }] },
    ];
    expect(names(messages)).toEqual([]);
  });

  it('required calls the asked-for read-only tool, else a read-only one chosen by the seed', () => {
    expect(names([user('use search-flights please')], { type: 'required' })).toEqual(['search-flights']);
    const chosen = names([user('hello')], { type: 'required' });
    expect(chosen).toHaveLength(1);
    expect(names([user('hello')], { type: 'required' })).toEqual(chosen);
    for (let seed = 0; seed < 20; seed++) {
      const request: ChatRequest = { model: 'm', messages: [user('hello')], tools: AGENT_TOOLS, toolChoice: { type: 'required' }, stream: false };
      const picked = chooseToolsToCall(request, inspectLastTurn(request), createPrng(seed)).call.map((t) => t.name);
      expect(['list_directory', 'read_file']).toContain(picked[0]);
    }
  });

  it('required among tools that all act calls nothing; required with one tool is forced and calls it', () => {
    const acting = AGENT_TOOLS.slice(2);
    expect(names([user('hello')], { type: 'required' }, undefined, acting)).toEqual([]);
    expect(names([user('hello')], { type: 'required' }, undefined, [acting[0]])).toEqual(['run_shell_command']);
  });

  it('a named tool choice calls exactly that tool, whatever it does', () => {
    expect(names([user('weather please')], { type: 'tool', name: 'Translate' })).toEqual(['Translate']);
    expect(names([user('hi')], { type: 'tool', name: 'run_shell_command' }, undefined, AGENT_TOOLS)).toEqual(['run_shell_command']);
  });

  it('a named tool choice for an unknown tool is an invalid request naming tool_choice', () => {
    expect(() => names([user('hi')], { type: 'tool', name: 'nope' })).toThrow(expect.objectContaining({ kind: 'invalid_request', param: 'tool_choice' }));
  });
});
