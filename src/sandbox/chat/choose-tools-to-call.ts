import type { ChatRequest, ToolDefinition } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';
import type { Prng } from '../shared/prng.js';
import type { LastTurn } from './inspect-last-turn.js';

/** The lowercase words of a text, split on anything that is not a letter or digit. */
function wordsOf(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean),
  );
}

/** A tool is named when its full name, or one word of it (split on `_` and `-`), appears in the text. */
function isNamed(tool: ToolDefinition, lowerText: string, textWords: Set<string>): boolean {
  const name = tool.name.toLowerCase();
  if (name.length > 0 && lowerText.includes(name)) return true;
  return name.split(/[_-]+/).some((word) => word.length > 0 && textWords.has(word));
}

function namedTools(tools: readonly ToolDefinition[], text: string): ToolDefinition[] {
  if (text.length === 0) return [];
  const lower = text.toLowerCase();
  const words = wordsOf(text);
  return tools.filter((tool) => isNamed(tool, lower, words));
}

/**
 * Which tools the simulated model calls (none: it answers with text). `required` calls a
 * named tool or a deterministically chosen one; a named choice calls that tool; `auto` calls
 * the tools the last user message names, when it is the last turn. More than one call only
 * with `parallelToolCalls: true`.
 */
export function chooseToolsToCall(request: ChatRequest, turn: LastTurn, rng: Prng): ToolDefinition[] {
  const tools = request.tools ?? [];
  const choice = request.toolChoice ?? { type: 'auto' };
  if (tools.length === 0 || choice.type === 'none') return [];
  if (choice.type === 'tool') {
    const tool = tools.find((t) => t.name === choice.name);
    if (!tool) throw invalidRequest(`tool_choice names the tool "${choice.name}", which is not among the tools`, 'tool_choice');
    return [tool];
  }
  const named = turn.endsWithUser ? namedTools(tools, turn.userText) : [];
  const limit = request.parallelToolCalls === true ? named.length : 1;
  if (choice.type === 'required') return named.length > 0 ? named.slice(0, limit) : [rng.pick(tools)];
  return named.slice(0, limit);
}
