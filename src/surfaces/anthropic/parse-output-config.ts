/**
 * Anthropic structured outputs → the canonical response format: `output_config.format`, or
 * the beta `output_format` that `client.beta.messages` still sends (same shape, deprecated).
 * `output_config.effort` is checked here and carried by no canonical field.
 */
import type { ResponseFormat } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { oneOf, optionalString, requireObject, type Json } from '../../core/validate.js';

function parseFormat(value: unknown, param: string): ResponseFormat | undefined {
  if (value === undefined || value === null) return undefined;
  const format = requireObject(value, param);
  oneOf(format.type, `${param}.type`, ['json_schema'] as const);
  if (format.schema === undefined || format.schema === null) {
    throw new GatewayError('invalid_request', `${param}.schema: is required`, { param: `${param}.schema` });
  }
  return { type: 'json_schema', schema: requireObject(format.schema, `${param}.schema`) };
}

export function parseOutputConfig(body: Json): ResponseFormat | undefined {
  let fromConfig: ResponseFormat | undefined;
  if (body.output_config !== undefined && body.output_config !== null) {
    const config = requireObject(body.output_config, 'output_config');
    optionalString(config.effort, 'output_config.effort');
    fromConfig = parseFormat(config.format, 'output_config.format');
  }
  const fromBeta = parseFormat(body.output_format, 'output_format');
  if (fromConfig && fromBeta) {
    throw new GatewayError('invalid_request', 'output_format: give the format once, in output_config.format (output_format is its deprecated beta name)', {
      param: 'output_format',
    });
  }
  return fromConfig ?? fromBeta;
}
