/**
 * Which tools the simulated model calls, safe to point a coding agent at. The sandbox invents
 * arguments, and agents run the calls they get back (some without asking), so it calls a
 * tool only when the request leaves no doubt:
 *
 * - forced: `tool_choice` names the tool, or is `required` with that tool the only one —
 *   whatever the tool does, the client asked for exactly that call;
 * - `required` among several tools: a tool that only reads (`classify-tool.ts`), the one the
 *   last user message asks for if any, else one chosen by the seed; none when every tool acts;
 * - `auto`: a read-only tool the prompt explicitly asks for ("use read_file", "call the tool
 *   `get_weather`"): the last text part of the last user message, if it is short enough to be
 *   a request (`MAX_ASK_CHARS`) rather than an agent's preamble or context, which name all of
 *   its tools ("Use read_file to …"). Merely mentioning a tool calls nothing.
 *
 * A tool that acts (runs commands, writes, edits, deletes…) and is asked for but not forced is
 * `declined`, and the answer says so. More than one call only with `parallelToolCalls: true`.
 */
import type { ChatRequest, ToolDefinition } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';
import type { Prng } from '../shared/prng.js';
import { actsOnTheWorld } from './classify-tool.js';
import type { LastTurn } from './inspect-last-turn.js';

export interface ToolPlan {
  /** The tools called (none: the answer is text). */
  call: ToolDefinition[];
  /** Tools asked for that act on the world and were not forced: not called, named in the answer. */
  declined: ToolDefinition[];
}

/** A prompt longer than this is taken for an agent's preamble or context, not a request to call a tool. */
const MAX_ASK_CHARS = 300;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** "use X", "call X", "run the tool `X`", "invoke X", "try X", "with X": the tool's full name after an asking verb. */
function isAskedFor(tool: ToolDefinition, text: string, lower: string): boolean {
  const name = tool.name.toLowerCase();
  if (name.length === 0 || !lower.includes(name)) return false;
  const asked = new RegExp(`\\b(?:use|using|call|run|invoke|try|with)\\s+(?:the\\s+)?(?:tool\\s+|function\\s+)?[\`"']?${escapeRegExp(name)}(?![\\w-])`, 'i');
  return asked.test(text);
}

function askedFor(tools: readonly ToolDefinition[], turn: LastTurn): ToolDefinition[] {
  const text = turn.lastUserPart;
  if (!turn.endsWithUser || text.length === 0 || text.length > MAX_ASK_CHARS) return [];
  const lower = text.toLowerCase();
  return tools.filter((tool) => isAskedFor(tool, text, lower));
}

export function chooseToolsToCall(request: ChatRequest, turn: LastTurn, rng: Prng): ToolPlan {
  const tools = request.tools ?? [];
  const choice = request.toolChoice ?? { type: 'auto' };
  if (tools.length === 0 || choice.type === 'none') return { call: [], declined: [] };
  if (choice.type === 'tool') {
    const tool = tools.find((t) => t.name === choice.name);
    if (!tool) throw invalidRequest(`tool_choice names the tool "${choice.name}", which is not among the tools`, 'tool_choice');
    return { call: [tool], declined: [] };
  }
  if (choice.type === 'required' && tools.length === 1) return { call: [tools[0]], declined: [] };
  const asked = askedFor(tools, turn);
  const declined = asked.filter(actsOnTheWorld);
  const readers = asked.filter((tool) => !actsOnTheWorld(tool));
  const limit = request.parallelToolCalls === true ? readers.length : 1;
  if (readers.length > 0) return { call: readers.slice(0, limit), declined };
  if (choice.type === 'required') {
    const readOnly = tools.filter((tool) => !actsOnTheWorld(tool));
    if (readOnly.length > 0) return { call: [rng.pick(readOnly)], declined };
  }
  return { call: [], declined };
}
