import { describe, expect, it } from 'vitest';
import type { ChatMessage, ChatRequest, ToolChoice, ToolDefinition } from '../../core/chat.js';
import { createPrng } from '../shared/prng.js';
import { chooseToolsToCall } from './choose-tools-to-call.js';
import { inspectLastTurn } from './inspect-last-turn.js';

const TOOLS: ToolDefinition[] = [
  { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
  { name: 'search-flights', parameters: { type: 'object', properties: {} } },
  { name: 'Translate', parameters: { type: 'object', properties: {} } },
];

function user(text: string): ChatMessage {
  return { role: 'user', content: [{ type: 'text', text }] };
}

function names(messages: ChatMessage[], toolChoice?: ToolChoice, parallelToolCalls?: boolean, tools = TOOLS): string[] {
  const request: ChatRequest = { model: 'm', messages, tools, toolChoice, parallelToolCalls, stream: false };
  return chooseToolsToCall(request, inspectLastTurn(request), createPrng(1)).map((t) => t.name);
}

describe('chooseToolsToCall', () => {
  it('calls nothing without tools or with tool choice none', () => {
    expect(names([user('weather please')], undefined, undefined, [])).toEqual([]);
    expect(names([user('weather please')], { type: 'none' })).toEqual([]);
  });

  it('auto calls a tool whose name or name word the user mentions, case-insensitively', () => {
    expect(names([user('What is the WEATHER in Oslo?')])).toEqual(['get_weather']);
    expect(names([user('please use get_weather')], { type: 'auto' })).toEqual(['get_weather']);
    expect(names([user('find me flights to Rome')])).toEqual(['search-flights']);
    expect(names([user('translate this')])).toEqual(['Translate']);
  });

  it('auto answers with text when no tool is mentioned', () => {
    expect(names([user('Tell me a story')])).toEqual([]);
  });

  it('auto calls at most one tool unless parallel tool calls are on', () => {
    const messages = [user('weather, then flights, then translate')];
    expect(names(messages)).toEqual(['get_weather']);
    expect(names(messages, { type: 'auto' }, true)).toEqual(['get_weather', 'search-flights', 'Translate']);
  });

  it('auto answers with text after tool results', () => {
    const messages: ChatMessage[] = [
      user('weather in Oslo?'),
      { role: 'assistant', content: [{ type: 'tool_call', id: 'c1', name: 'get_weather', arguments: '{}' }] },
      { role: 'tool', content: [{ type: 'tool_result', toolCallId: 'c1', content: 'rain' }] },
    ];
    expect(names(messages)).toEqual([]);
  });

  it('required calls a mentioned tool, else one chosen by the seed', () => {
    expect(names([user('flights please')], { type: 'required' })).toEqual(['search-flights']);
    const chosen = names([user('hello')], { type: 'required' });
    expect(chosen).toHaveLength(1);
    expect(TOOLS.map((t) => t.name)).toContain(chosen[0]);
    expect(names([user('hello')], { type: 'required' })).toEqual(chosen);
  });

  it('a named tool choice calls exactly that tool', () => {
    expect(names([user('weather please')], { type: 'tool', name: 'Translate' })).toEqual(['Translate']);
  });

  it('a named tool choice for an unknown tool is an invalid request naming tool_choice', () => {
    expect(() => names([user('hi')], { type: 'tool', name: 'nope' })).toThrow(expect.objectContaining({ kind: 'invalid_request', param: 'tool_choice' }));
  });
});
