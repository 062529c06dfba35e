/**
 * Claude Code's tool search, read for translated routes. A client with many tools (MCP
 * servers) marks most of them `defer_loading: true` and gives the model a search tool of its
 * own; the search's `tool_result` holds `tool_reference` blocks (`{type: "tool_reference",
 * tool_name}`), after which Anthropic makes the named tools callable. Other upstreams know
 * neither, so the gateway does what Anthropic does before translating:
 *
 * - a `tool_reference` becomes the text `Tool <name> is now available.` in the tool result;
 * - a deferred tool is withheld until the conversation references it (a `tool_reference`, a
 *   call the model already made to it, or `tool_choice` naming it), then sent as a normal
 *   tool. The target thus sees what Claude would have seen, the tool loop keeps working
 *   (search → reference → call), and a large deferred set never meets a target's tool-count
 *   limit. A request whose every tool is deferred and unreferenced but whose `tool_choice`
 *   forces some tool (`any`) gets them all, since the target needs a tool to call.
 *
 * Same-dialect pass-through never parses the body, so Anthropic receives both untouched.
 */
import type { ChatMessage, TextPart, ToolChoice, ToolDefinition } from '../../core/chat.js';
import { requireString, type Json } from '../../core/validate.js';

/** The text a `tool_reference` block becomes. */
export function toolReferenceText(block: Json, param: string, referenced: Set<string>): TextPart {
  const name = requireString(block.tool_name, `${param}.tool_name`);
  referenced.add(name);
  return { type: 'text', text: `Tool ${name} is now available.` };
}

/** The tools sent to a target that cannot defer loading. */
export function loadedTools(
  tools: ToolDefinition[],
  deferred: ReadonlySet<string>,
  referenced: ReadonlySet<string>,
  messages: readonly ChatMessage[],
  toolChoice: ToolChoice | undefined,
): ToolDefinition[] {
  if (deferred.size === 0) return tools;
  const wanted = new Set(referenced);
  if (toolChoice?.type === 'tool') wanted.add(toolChoice.name);
  for (const message of messages) for (const part of message.content) if (part.type === 'tool_call') wanted.add(part.name);
  const loaded = tools.filter((tool) => !deferred.has(tool.name) || wanted.has(tool.name));
  return loaded.length === 0 && toolChoice?.type === 'required' ? tools : loaded;
}
