/**
 * Anthropic `tools` and `tool_choice` → canonical tool definitions and choice.
 */
import type { ToolChoice, ToolDefinition } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { oneOf, optionalBoolean, optionalString, requireArray, requireObject, requireString } from '../../core/validate.js';
import { describeValue } from '../../core/describe-value.js';

export interface ParsedTools {
  tools: ToolDefinition[];
  /** Names of the tools marked `defer_loading: true` (tool search; see tool-search-blocks.ts). */
  deferred: Set<string>;
}

export function parseTools(value: unknown): ParsedTools | undefined {
  if (value === undefined || value === null) return undefined;
  const deferred = new Set<string>();
  const tools = requireArray(value, 'tools').map((item, i) => {
    const param = `tools[${i}]`;
    const tool = requireObject(item, param);
    if (tool.type !== undefined && tool.type !== null && tool.type !== 'custom') {
      throw new GatewayError(
        'invalid_request',
        `${param}.type: server tools (${describeValue(tool.type)}) are not supported by this gateway; define a custom tool with name and input_schema`,
        { param: `${param}.type`, code: 'unsupported_tool' },
      );
    }
    const name = requireString(tool.name, `${param}.name`);
    if (name.length === 0) throw new GatewayError('invalid_request', `${param}.name: must not be empty`, { param: `${param}.name` });
    const definition: ToolDefinition = { name, parameters: requireObject(tool.input_schema, `${param}.input_schema`) };
    const description = optionalString(tool.description, `${param}.description`);
    if (description !== undefined) definition.description = description;
    const strict = optionalBoolean(tool.strict, `${param}.strict`);
    if (strict !== undefined) definition.strict = strict;
    if (optionalBoolean(tool.defer_loading, `${param}.defer_loading`) === true) deferred.add(name);
    return definition;
  });
  return { tools, deferred };
}

interface ParsedToolChoice {
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
}

export function parseToolChoice(value: unknown): ParsedToolChoice {
  if (value === undefined || value === null) return {};
  const choice = requireObject(value, 'tool_choice');
  const type = oneOf(choice.type, 'tool_choice.type', ['auto', 'any', 'none', 'tool'] as const);
  const result: ParsedToolChoice = {};
  if (type === 'auto') result.toolChoice = { type: 'auto' };
  else if (type === 'any') result.toolChoice = { type: 'required' };
  else if (type === 'none') result.toolChoice = { type: 'none' };
  else result.toolChoice = { type: 'tool', name: requireString(choice.name, 'tool_choice.name') };
  if (optionalBoolean(choice.disable_parallel_tool_use, 'tool_choice.disable_parallel_tool_use') === true) {
    result.parallelToolCalls = false;
  }
  return result;
}
