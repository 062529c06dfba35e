/** OpenAI `tools[]` and `tool_choice` → canonical tool definitions and choice. */
import type { ToolChoice, ToolDefinition } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';
import { describe, optionalBoolean, optionalString, requireArray, requireObject, requireString } from '../../core/validate.js';
import { describeValue } from '../../core/describe-value.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function parseOpenAITools(value: unknown): ToolDefinition[] | undefined {
  if (value === undefined || value === null) return undefined;
  const list = requireArray(value, 'tools');
  const seen = new Set<string>();
  return list.map((item, i) => {
    const param = `tools[${i}]`;
    const tool = requireObject(item, param);
    if (tool.type !== 'function') {
      throw invalidRequest(`${param}.type: only "function" tools are supported, got ${describeValue(tool.type)}`, `${param}.type`);
    }
    const fn = requireObject(tool.function, `${param}.function`);
    const name = requireString(fn.name, `${param}.function.name`);
    if (!TOOL_NAME.test(name)) {
      throw invalidRequest(`${param}.function.name: must match ^[a-zA-Z0-9_-]{1,64}$, got ${describeValue(name)}`, `${param}.function.name`);
    }
    if (seen.has(name)) throw invalidRequest(`${param}.function.name: duplicate tool name ${describeValue(name)}`, `${param}.function.name`);
    seen.add(name);
    const definition: ToolDefinition = { name, parameters: parameters(fn.parameters, `${param}.function.parameters`) };
    const description = optionalString(fn.description, `${param}.function.description`);
    if (description !== undefined) definition.description = description;
    const strict = optionalBoolean(fn.strict, `${param}.function.strict`);
    if (strict !== undefined) definition.strict = strict;
    return definition;
  });
}

function parameters(value: unknown, param: string): Record<string, unknown> {
  if (value === undefined || value === null) return { type: 'object', properties: {} };
  return requireObject(value, param);
}

export function parseOpenAIToolChoice(value: unknown, tools: ToolDefinition[] | undefined): ToolChoice | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') {
    if (value === 'none' || value === 'auto') return { type: value };
    if (value === 'required') {
      if (!tools || tools.length === 0) throw invalidRequest('tool_choice: "required" needs at least one tool in tools', 'tool_choice');
      return { type: 'required' };
    }
    throw invalidRequest(`tool_choice: must be "none", "auto", "required" or a function object, got ${describeValue(value)}`, 'tool_choice');
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidRequest(`tool_choice: expected a string or an object, got ${describe(value)}`, 'tool_choice');
  }
  const choice = value as Record<string, unknown>;
  if (choice.type !== 'function') {
    throw invalidRequest(`tool_choice.type: must be "function", got ${describeValue(choice.type)}`, 'tool_choice.type');
  }
  const fn = requireObject(choice.function, 'tool_choice.function');
  const name = requireString(fn.name, 'tool_choice.function.name');
  if (!tools?.some((tool) => tool.name === name)) {
    throw invalidRequest(`tool_choice.function.name: no function named ${describeValue(name)} in tools`, 'tool_choice.function.name');
  }
  return { type: 'tool', name };
}
