/** Gemini `tools[].functionDeclarations` and `toolConfig.functionCallingConfig` → canonical tools and tool choice. */
import type { ToolChoice, ToolDefinition } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { oneOf, optionalString, optionalStringList, requireArray, requireObject, requireString } from '../../core/validate.js';
import { geminiSchemaToJsonSchema } from './gemini-schema-to-json-schema.js';
import { protoField, protoKey } from './proto-field.js';

const MODES = ['AUTO', 'ANY', 'NONE', 'VALIDATED', 'MODE_UNSPECIFIED'] as const;

/** Function declarations of every tool; other tool kinds (search, code execution) have no canonical form. */
export function parseGeminiTools(value: unknown, param: string): ToolDefinition[] {
  const tools = requireArray(value, param);
  const definitions: ToolDefinition[] = [];
  tools.forEach((item, t) => {
    const toolAt = `${param}[${t}]`;
    const tool = requireObject(item, toolAt);
    const declarationsKey = protoKey(tool, 'functionDeclarations');
    const declarations = tool[declarationsKey];
    if (declarations === undefined || declarations === null) return;
    const listAt = `${toolAt}.${declarationsKey}`;
    requireArray(declarations, listAt).forEach((declaration, d) => {
      definitions.push(parseDeclaration(declaration, `${listAt}[${d}]`));
    });
  });
  return definitions;
}

function parseDeclaration(value: unknown, at: string): ToolDefinition {
  const declaration = requireObject(value, at);
  const name = requireString(declaration.name, `${at}.name`);
  if (name.length === 0) throw new GatewayError('invalid_request', `${at}.name: must not be empty`, { param: `${at}.name` });
  const description = optionalString(declaration.description, `${at}.description`);
  const jsonSchema = protoField(declaration, 'parametersJsonSchema');
  let parameters: Record<string, unknown>;
  if (jsonSchema !== undefined && jsonSchema !== null) {
    parameters = requireObject(jsonSchema, `${at}.${protoKey(declaration, 'parametersJsonSchema')}`);
  } else if (declaration.parameters !== undefined && declaration.parameters !== null) {
    parameters = geminiSchemaToJsonSchema(declaration.parameters, `${at}.parameters`);
  } else {
    parameters = { type: 'object', properties: {} };
  }
  return description === undefined ? { name, parameters } : { name, description, parameters };
}

export function parseGeminiToolConfig(value: unknown, param: string): ToolChoice | undefined {
  const config = requireObject(value, param);
  const callingKey = protoKey(config, 'functionCallingConfig');
  const calling = config[callingKey];
  if (calling === undefined || calling === null) return undefined;
  const at = `${param}.${callingKey}`;
  const callingConfig = requireObject(calling, at);
  const mode = callingConfig.mode === undefined ? 'AUTO' : oneOf(callingConfig.mode, `${at}.mode`, MODES);
  const namesKey = protoKey(callingConfig, 'allowedFunctionNames');
  const names = optionalStringList(callingConfig[namesKey], `${at}.${namesKey}`);
  switch (mode) {
    case 'NONE':
      return { type: 'none' };
    // The canonical form can force one named tool, not a subset: several names mean "any tool".
    case 'ANY':
      return names?.length === 1 ? { type: 'tool', name: names[0] } : { type: 'required' };
    default:
      return { type: 'auto' };
  }
}
