/** Gemini `generationConfig` → the canonical sampling, length, format and thinking options. */
import type { ChatRequest, ResponseFormat } from '../../core/chat.js';
import { GatewayError } from '../../core/errors.js';
import { optionalInteger, optionalNumber, optionalString, optionalStringList, requireObject } from '../../core/validate.js';
import { geminiSchemaToJsonSchema } from './gemini-schema-to-json-schema.js';
import { protoField, protoKey } from './proto-field.js';
import { describeValue } from '../../core/describe-value.js';

type GenerationOptions = Pick<
  ChatRequest,
  'temperature' | 'topP' | 'topK' | 'maxTokens' | 'stop' | 'seed' | 'presencePenalty' | 'frequencyPenalty' | 'responseFormat' | 'thinkingBudget'
>;

/** Gemini accepts at most five stop sequences. */
const MAX_STOP_SEQUENCES = 5;

export function parseGeminiGenerationConfig(value: unknown, param: string): GenerationOptions {
  const config = requireObject(value, param);
  const at = (camel: string): string => `${param}.${protoKey(config, camel)}`;
  const options: GenerationOptions = {};
  const set = <K extends keyof GenerationOptions>(key: K, v: GenerationOptions[K] | undefined): void => {
    if (v !== undefined) options[key] = v;
  };

  set('temperature', optionalNumber(protoField(config, 'temperature'), at('temperature'), 0, 2));
  set('topP', optionalNumber(protoField(config, 'topP'), at('topP'), 0, 1));
  set('topK', optionalInteger(protoField(config, 'topK'), at('topK'), 1));
  set('maxTokens', optionalInteger(protoField(config, 'maxOutputTokens'), at('maxOutputTokens'), 1));
  set('stop', optionalStringList(protoField(config, 'stopSequences'), at('stopSequences'), MAX_STOP_SEQUENCES));
  set('seed', optionalInteger(protoField(config, 'seed'), at('seed')));
  set('presencePenalty', optionalNumber(protoField(config, 'presencePenalty'), at('presencePenalty')));
  set('frequencyPenalty', optionalNumber(protoField(config, 'frequencyPenalty'), at('frequencyPenalty')));

  const candidates = optionalInteger(protoField(config, 'candidateCount'), at('candidateCount'));
  if (candidates !== undefined && candidates !== 1) {
    throw new GatewayError('invalid_request', `${at('candidateCount')}: only 1 candidate is supported, got ${candidates}`, {
      param: at('candidateCount'),
    });
  }

  set('responseFormat', parseResponseFormat(config, at));

  const thinking = protoField(config, 'thinkingConfig');
  if (thinking !== undefined && thinking !== null) {
    const thinkingAt = at('thinkingConfig');
    const thinkingConfig = requireObject(thinking, thinkingAt);
    const budget = optionalInteger(protoField(thinkingConfig, 'thinkingBudget'), `${thinkingAt}.${protoKey(thinkingConfig, 'thinkingBudget')}`, -1);
    // -1 asks for Gemini's dynamic budget: the upstream's default, so nothing to carry.
    if (budget !== undefined && budget >= 0) options.thinkingBudget = budget;
  }
  return options;
}

function parseResponseFormat(config: Record<string, unknown>, at: (camel: string) => string): ResponseFormat | undefined {
  const mimeType = optionalString(protoField(config, 'responseMimeType'), at('responseMimeType'));
  const schemaValue = protoField(config, 'responseSchema');
  const jsonSchemaValue = protoField(config, 'responseJsonSchema');
  const hasSchema = (schemaValue !== undefined && schemaValue !== null) || (jsonSchemaValue !== undefined && jsonSchemaValue !== null);
  if (mimeType === undefined || mimeType === 'text/plain') {
    if (hasSchema) {
      const param = at(jsonSchemaValue !== undefined && jsonSchemaValue !== null ? 'responseJsonSchema' : 'responseSchema');
      throw new GatewayError('invalid_request', `${param}: a response schema requires responseMimeType "application/json"`, { param });
    }
    return mimeType === undefined ? undefined : { type: 'text' };
  }
  if (mimeType !== 'application/json') {
    const param = at('responseMimeType');
    throw new GatewayError('invalid_request', `${param}: must be "text/plain" or "application/json", got ${describeValue(mimeType)}`, { param });
  }
  if (jsonSchemaValue !== undefined && jsonSchemaValue !== null) {
    return { type: 'json_schema', schema: requireObject(jsonSchemaValue, at('responseJsonSchema')) };
  }
  if (schemaValue !== undefined && schemaValue !== null) {
    return { type: 'json_schema', schema: geminiSchemaToJsonSchema(schemaValue, at('responseSchema')) };
  }
  return { type: 'json_object' };
}
