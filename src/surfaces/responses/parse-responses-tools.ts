/**
 * Responses `tools` and `tool_choice` → canonical tool definitions and choice, with both as a
 * response object echoes them. Only `function` tools translate: every built-in tool
 * (`web_search`, `file_search`, `code_interpreter`, `mcp`, `custom`, …) runs on OpenAI's side
 * and is refused by name until the surface can pass requests through to an OpenAI upstream.
 * `allowed_tools` narrows the canonical tool list to the functions it names.
 */
import type { ToolChoice, ToolDefinition } from '../../core/chat.js';
import { describeValue } from '../../core/describe-value.js';
import { invalidRequest } from '../../core/errors.js';
import { describe, oneOf, optionalBoolean, optionalString, requireArray, requireObject, requireString, type Json } from '../../core/validate.js';

/** More tools than any model is given in practice; it bounds the loops over them. */
const MAX_TOOLS = 512;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface ParsedTools {
  definitions: ToolDefinition[];
  /** As the response object lists them. */
  echo: Json[];
}

function builtIn(type: unknown, param: string): never {
  if (typeof type !== 'string') throw invalidRequest(`${param}: expected "function", got ${describeValue(type)}`, param);
  throw invalidRequest(
    `${param}: ${describeValue(type)} is a built-in tool gengate can only pass through to an OpenAI upstream, which it does not do yet; only "function" tools are translated`,
    param,
  );
}

function boundedList(value: unknown, param: string): unknown[] {
  const list = requireArray(value, param);
  if (list.length > MAX_TOOLS) throw invalidRequest(`${param}: ${list.length} tools is more than the ${MAX_TOOLS} allowed`, param);
  return list;
}

export function parseResponsesTools(value: unknown): ParsedTools {
  const parsed: ParsedTools = { definitions: [], echo: [] };
  if (value === undefined || value === null) return parsed;
  const seen = new Set<string>();
  boundedList(value, 'tools').forEach((item, i) => {
    const param = `tools[${i}]`;
    const tool = requireObject(item, param);
    if (tool.type !== 'function') builtIn(tool.type, `${param}.type`);
    const name = requireString(tool.name, `${param}.name`);
    if (!TOOL_NAME.test(name)) throw invalidRequest(`${param}.name: must match ^[a-zA-Z0-9_-]{1,64}$, got ${describeValue(name)}`, `${param}.name`);
    if (seen.has(name)) throw invalidRequest(`${param}.name: duplicate tool name ${describeValue(name)}`, `${param}.name`);
    seen.add(name);
    const given = tool.parameters === undefined || tool.parameters === null ? undefined : requireObject(tool.parameters, `${param}.parameters`);
    const definition: ToolDefinition = { name, parameters: given ?? { type: 'object', properties: {} } };
    const description = optionalString(tool.description, `${param}.description`);
    if (description !== undefined) definition.description = description;
    const strict = optionalBoolean(tool.strict, `${param}.strict`);
    if (strict !== undefined) definition.strict = strict;
    parsed.definitions.push(definition);
    parsed.echo.push({ type: 'function', name, description: description ?? null, parameters: given ?? null, strict: strict ?? null });
  });
  return parsed;
}

export interface ParsedToolChoice {
  choice?: ToolChoice;
  /** The tools the model may call, when `allowed_tools` narrowed them. */
  allowed?: ToolDefinition[];
  echo: unknown;
}

export function parseResponsesToolChoice(value: unknown, tools: readonly ToolDefinition[]): ParsedToolChoice {
  if (value === undefined || value === null) return { echo: 'auto' };
  if (typeof value === 'string') {
    const mode = oneOf(value, 'tool_choice', ['none', 'auto', 'required'] as const);
    if (mode === 'required' && tools.length === 0) throw invalidRequest('tool_choice: "required" needs at least one tool in tools', 'tool_choice');
    return { choice: { type: mode }, echo: mode };
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidRequest(`tool_choice: expected a string or an object, got ${describe(value)}`, 'tool_choice');
  }
  const choice = value as Json;
  if (choice.type === 'function') {
    const name = namedFunction(choice.name, 'tool_choice.name', tools);
    return { choice: { type: 'tool', name }, echo: { type: 'function', name } };
  }
  if (choice.type === 'allowed_tools') return allowedTools(choice, tools);
  return builtIn(choice.type, 'tool_choice.type');
}

function namedFunction(value: unknown, param: string, tools: readonly ToolDefinition[]): string {
  const name = requireString(value, param);
  if (!tools.some((tool) => tool.name === name)) throw invalidRequest(`${param}: no function named ${describeValue(name)} in tools`, param);
  return name;
}

function allowedTools(choice: Json, tools: readonly ToolDefinition[]): ParsedToolChoice {
  const mode = oneOf(choice.mode, 'tool_choice.mode', ['auto', 'required'] as const);
  const names = new Set<string>();
  boundedList(choice.tools, 'tool_choice.tools').forEach((item, i) => {
    const param = `tool_choice.tools[${i}]`;
    const tool = requireObject(item, param);
    if (tool.type !== 'function') builtIn(tool.type, `${param}.type`);
    names.add(namedFunction(tool.name, `${param}.name`, tools));
  });
  if (names.size === 0) throw invalidRequest('tool_choice.tools: must name at least one function', 'tool_choice.tools');
  return {
    choice: { type: mode },
    allowed: tools.filter((tool) => names.has(tool.name)),
    echo: { type: 'allowed_tools', mode, tools: [...names].map((name) => ({ type: 'function', name })) },
  };
}
