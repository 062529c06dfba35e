/**
 * Tool names fitted to what the target upstream accepts, reversibly. OpenAI wants
 * `^[a-zA-Z0-9_-]{1,64}$`, Anthropic the same, Gemini a first letter or underscore; clients
 * (MCP tools such as `mcp__server__a_very_long_tool_name…`, Gemini names with dots or colons)
 * send names that break those rules. A name that breaks them is replaced by a short,
 * deterministic one: its allowed characters, cut to leave room, then `_` and a hash of the
 * whole original (so two long names with one prefix stay apart, and the same name always
 * maps to the same short one across the turns of a conversation). The same map renames the
 * tool definitions, the tool choice and the calls and results already in the history (and the
 * names inside tool results' text, such as a tool search's answer), and
 * renames the upstream's tool calls back, so the client only ever sees its own names.
 */
import { createHash } from 'node:crypto';
import type { ChatEvent, ChatMessage, ChatRequest, ChatResponse, ContentPart, ToolCallPart } from '../../core/chat.js';

export interface ToolNameRules {
  /** Longest name accepted. */
  maxLength: number;
  /** Every character a name may hold, as a one-character class (`[a-zA-Z0-9_-]`). */
  allowed: RegExp;
  /** What the first character must be, when the target restricts it (Gemini: a letter or `_`). */
  first?: RegExp;
}

/** The renaming of one request; `restore` turns an upstream name back into the client's. */
export interface ToolNameMap {
  /** Original names by the short names sent upstream (empty when nothing was renamed). */
  readonly originals: ReadonlyMap<string, string>;
  restore(name: string): string;
}

const HASH_LENGTH = 8;

function fits(name: string, rules: ToolNameRules): boolean {
  if (name.length === 0 || name.length > rules.maxLength) return false;
  if (rules.first && !rules.first.test(name[0])) return false;
  for (const char of name) if (!rules.allowed.test(char)) return false;
  return true;
}

function hashOf(name: string, length: number): string {
  return createHash('sha256').update(name).digest('hex').slice(0, length);
}

/** The short name for `name` under `rules` (the name itself when it already fits). */
export function shortToolName(name: string, rules: ToolNameRules, hashLength = HASH_LENGTH): string {
  if (fits(name, rules)) return name;
  let cleaned = '';
  for (const char of name) cleaned += rules.allowed.test(char) ? char : '_';
  if (rules.first && cleaned.length > 0 && !rules.first.test(cleaned[0])) cleaned = `_${cleaned}`;
  const suffix = `_${hashOf(name, hashLength)}`;
  const head = cleaned.slice(0, Math.max(0, rules.maxLength - suffix.length));
  const short = head + suffix;
  return rules.first && !rules.first.test(short[0]) ? `_${short.slice(1)}` : short;
}

const IDENTITY: ToolNameMap = { originals: new Map(), restore: (name) => name };

/**
 * Every tool name the request holds (definitions, choice, calls and results in the history);
 * bounded by the request, which the surface has already bounded.
 */
function namesOf(request: ChatRequest): Set<string> {
  const names = new Set<string>();
  for (const tool of request.tools ?? []) names.add(tool.name);
  if (request.toolChoice?.type === 'tool') names.add(request.toolChoice.name);
  for (const message of request.messages) {
    for (const part of message.content) {
      if (part.type === 'tool_call') names.add(part.name);
      else if (part.type === 'tool_result' && part.name !== undefined) names.add(part.name);
    }
  }
  return names;
}

/** Builds the map for `names`; a short name that would meet another name is made longer. */
function buildMap(names: Set<string>, rules: ToolNameRules): Map<string, string> {
  const shortByName = new Map<string, string>();
  const taken = new Set([...names].filter((name) => fits(name, rules)));
  for (const name of names) {
    if (taken.has(name)) continue;
    let short = shortToolName(name, rules);
    // A 32-bit prefix of SHA-256 meeting another name is improbable; a longer hash settles it.
    for (let length = HASH_LENGTH * 2; taken.has(short) && length <= 32; length += HASH_LENGTH) short = shortToolName(name, rules, length);
    taken.add(short);
    shortByName.set(name, short);
  }
  return shortByName;
}

/**
 * Tool results that name renamed tools (a tool search's "Tool mcp__…_long_name is now
 * available.", a listing of tools) name them as the target knows them, so the model calls
 * the name it was given. Longer names first, so a name inside another is not cut.
 */
function renameInText(text: string, renames: ReadonlyArray<readonly [string, string]>): string {
  let out = text;
  for (const [name, short] of renames) if (out.includes(name)) out = out.split(name).join(short);
  return out;
}

function renamePart(part: ContentPart, rename: (name: string) => string, renames: ReadonlyArray<readonly [string, string]>): ContentPart {
  if (part.type === 'tool_call') return { ...part, name: rename(part.name) };
  if (part.type !== 'tool_result') return part;
  const content =
    typeof part.content === 'string'
      ? renameInText(part.content, renames)
      : part.content.map((inner) => (inner.type === 'text' ? { ...inner, text: renameInText(inner.text, renames) } : inner));
  return part.name === undefined ? { ...part, content } : { ...part, name: rename(part.name), content };
}

/** The request with every tool name fitted to `rules`, and the map that restores the upstream's names. */
export function fitToolNames(request: ChatRequest, rules: ToolNameRules): { request: ChatRequest; names: ToolNameMap } {
  const shortByName = buildMap(namesOf(request), rules);
  if (shortByName.size === 0) return { request, names: IDENTITY };
  const rename = (name: string): string => shortByName.get(name) ?? name;
  const renames = [...shortByName].sort(([a], [b]) => b.length - a.length);
  const fitted: ChatRequest = {
    ...request,
    messages: request.messages.map((message): ChatMessage => ({ ...message, content: message.content.map((part) => renamePart(part, rename, renames)) })),
  };
  if (request.tools) fitted.tools = request.tools.map((tool) => ({ ...tool, name: rename(tool.name) }));
  if (request.toolChoice?.type === 'tool') fitted.toolChoice = { type: 'tool', name: rename(request.toolChoice.name) };
  const originals = new Map([...shortByName].map(([name, short]) => [short, name]));
  return { request: fitted, names: { originals, restore: (name) => originals.get(name) ?? name } };
}

function restoreContent<T extends { type: string }>(content: T[], names: ToolNameMap): T[] {
  return content.map((part) => (part.type === 'tool_call' ? { ...part, name: names.restore((part as unknown as ToolCallPart).name) } : part));
}

/** The upstream's answer with the client's tool names back. */
export function restoreToolNames(response: ChatResponse, names: ToolNameMap): ChatResponse {
  if (names.originals.size === 0) return response;
  const restored: ChatResponse = { ...response, content: restoreContent(response.content, names) };
  if (response.otherChoices) restored.otherChoices = response.otherChoices.map((choice) => ({ ...choice, content: restoreContent(choice.content, names) }));
  return restored;
}

/** The upstream's stream with the client's tool names back in every tool-call start. */
export function restoreToolNamesInStream(events: AsyncIterable<ChatEvent>, names: ToolNameMap): AsyncIterable<ChatEvent> {
  if (names.originals.size === 0) return events;
  return (async function* () {
    for await (const event of events) yield event.type === 'tool_call_start' ? { ...event, name: names.restore(event.name) } : event;
  })();
}
