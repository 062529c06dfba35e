/**
 * Responses `tools` and `tool_choice` → canonical tool definitions and choice, with both as a
 * response object echoes them. `function` tools translate, and so do the functions of a
 * `namespace` tool (Codex groups its multi-agent tools in one): each becomes the canonical tool
 * `<namespace>__<name>`, mapped back to `namespace` + `name` on the output items. Hosted tools
 * (`web_search`, `file_search`, `code_interpreter`, `mcp`, `custom`, …) run on OpenAI's side:
 * an upstream reached by translation cannot run them, so they are left out with a warning (an
 * agent that offers web search by default still works) — and refused when `tool_choice` forces
 * one. `allowed_tools` narrows the canonical tool list to the functions it names.
 */
import type { ToolChoice, ToolDefinition } from '../../core/chat.js';
import { describeValue } from '../../core/describe-value.js';
import { invalidRequest } from '../../core/errors.js';
import { describe, oneOf, optionalBoolean, optionalString, requireArray, requireObject, requireString, type Json } from '../../core/validate.js';

/** More tools than any model is given in practice (namespaces' functions included); it bounds the loops over them. */
const MAX_TOOLS = 512;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Joins a namespace and a function name into one canonical tool name. */
const NAMESPACE_SEPARATOR = '__';

/** A canonical tool name that stands for a function inside a `namespace` tool. */
export interface NamespacedName {
  namespace: string;
  name: string;
}

export interface ParsedTools {
  definitions: ToolDefinition[];
  /** As the response object lists them. */
  echo: Json[];
  /** Canonical names of namespaced functions → their namespace and own name. */
  namespaces: Map<string, NamespacedName>;
  /** Hosted tools left out, one line each (`x-gengate-warnings`). */
  warnings: string[];
}

function builtIn(type: unknown, param: string): never {
  if (typeof type !== 'string') throw invalidRequest(`${param}: expected "function", got ${describeValue(type)}`, param);
  throw invalidRequest(
    `${param}: ${describeValue(type)} is a hosted tool that runs on OpenAI's side; gengate translates this request for its upstream, which cannot run it, so it cannot be forced`,
    param,
  );
}

function boundedList(value: unknown, param: string): unknown[] {
  const list = requireArray(value, param);
  if (list.length > MAX_TOOLS) throw invalidRequest(`${param}: ${list.length} tools is more than the ${MAX_TOOLS} allowed`, param);
  return list;
}

function toolName(value: unknown, param: string): string {
  const name = requireString(value, param);
  if (!TOOL_NAME.test(name)) throw invalidRequest(`${param}: must match ^[a-zA-Z0-9_-]{1,64}$, got ${describeValue(name)}`, param);
  return name;
}

export function parseResponsesTools(value: unknown): ParsedTools {
  const parsed: ParsedTools = { definitions: [], echo: [], namespaces: new Map(), warnings: [] };
  if (value === undefined || value === null) return parsed;
  const seen = new Set<string>();
  const add = (definition: ToolDefinition, param: string) => {
    if (seen.has(definition.name)) throw invalidRequest(`${param}: duplicate tool name ${describeValue(definition.name)}`, param);
    if (seen.size >= MAX_TOOLS) throw invalidRequest(`tools: more than the ${MAX_TOOLS} tools allowed, namespaces' functions included`, 'tools');
    seen.add(definition.name);
    parsed.definitions.push(definition);
  };
  boundedList(value, 'tools').forEach((item, i) => {
    const param = `tools[${i}]`;
    const tool = requireObject(item, param);
    if (tool.type === 'function') {
      const { definition, echo } = functionTool(tool, param, toolName(tool.name, `${param}.name`));
      add(definition, `${param}.name`);
      parsed.echo.push(echo);
    } else if (tool.type === 'namespace') {
      parsed.echo.push(namespaceTool(tool, param, parsed, add));
    } else {
      if (typeof tool.type !== 'string') throw invalidRequest(`${param}.type: expected a string, got ${describeValue(tool.type)}`, `${param}.type`);
      parsed.warnings.push(
        `${param}: the hosted tool ${describeValue(tool.type)} was left out: it runs on OpenAI's side and this request is translated for its upstream`,
      );
      parsed.echo.push(tool);
    }
  });
  return parsed;
}

function functionTool(tool: Json, param: string, name: string): { definition: ToolDefinition; echo: Json } {
  const given = tool.parameters === undefined || tool.parameters === null ? undefined : requireObject(tool.parameters, `${param}.parameters`);
  const definition: ToolDefinition = { name, parameters: given ?? { type: 'object', properties: {} } };
  const description = optionalString(tool.description, `${param}.description`);
  if (description !== undefined) definition.description = description;
  const strict = optionalBoolean(tool.strict, `${param}.strict`);
  if (strict !== undefined) definition.strict = strict;
  return { definition, echo: { type: 'function', name, description: description ?? null, parameters: given ?? null, strict: strict ?? null } };
}

function namespaceTool(tool: Json, param: string, parsed: ParsedTools, add: (definition: ToolDefinition, param: string) => void): Json {
  const namespace = toolName(tool.name, `${param}.name`);
  const description = optionalString(tool.description, `${param}.description`);
  const echoed: Json[] = [];
  boundedList(tool.tools, `${param}.tools`).forEach((item, j) => {
    const innerParam = `${param}.tools[${j}]`;
    const inner = requireObject(item, innerParam);
    if (inner.type !== 'function') {
      parsed.warnings.push(`${innerParam}: the ${describeValue(inner.type)} tool of namespace ${namespace} was left out: only its function tools translate`);
      echoed.push(inner);
      return;
    }
    const name = toolName(inner.name, `${innerParam}.name`);
    const canonicalName = `${namespace}${NAMESPACE_SEPARATOR}${name}`;
    const { definition, echo } = functionTool(inner, innerParam, canonicalName);
    add(definition, `${innerParam}.name`);
    parsed.namespaces.set(canonicalName, { namespace, name });
    echoed.push({ ...echo, name });
  });
  return { type: 'namespace', name: namespace, description: description ?? null, tools: echoed };
}

/** The canonical name of a function call item, namespaced or not. */
export function canonicalToolName(name: string, namespace: string | undefined): string {
  return namespace === undefined ? name : `${namespace}${NAMESPACE_SEPARATOR}${name}`;
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
