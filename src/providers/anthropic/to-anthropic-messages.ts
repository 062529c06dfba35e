/**
 * The canonical ChatRequest → an Anthropic Messages API request body.
 */
import type { ChatRequest, TextPart } from '../../core/chat.js';
import type { AnthropicMessagesRequest, AnthropicTextBlock, AnthropicToolChoice } from '../../core/wire/anthropic-types.js';
import { withoutForeignThinking } from '../shared/drop-foreign-thinking.js';
import { formatInstruction, instructionFallbackWarning, jsonResponseFormat, nativeStructuredOutput } from '../shared/structured-output.js';
import type { Attempt } from '../types.js';
import { anthropicMaxTokens, applyThinkingAndSampling } from './anthropic-thinking.js';
import { toTextBlock } from './to-anthropic-content.js';
import { toAnthropicOutputSchema } from './to-anthropic-output-schema.js';
import { toAnthropicTurns } from './to-anthropic-turns.js';

type Warn = (message: string) => void;

/**
 * A JSON schema goes out natively as `output_config.format`; `json_object` (no Anthropic
 * counterpart) and channels configured without structured output get an instruction instead.
 */
function applyResponseFormat(body: AnthropicMessagesRequest, request: ChatRequest, attempt: Attempt, warn: Warn): string | undefined {
  const format = jsonResponseFormat(request.responseFormat);
  if (!format) return undefined;
  if (!nativeStructuredOutput(attempt.channel)) {
    warn(instructionFallbackWarning(attempt.channel));
    return formatInstruction(format);
  }
  if (format.type === 'json_object') {
    warn('response_format: json_object has no Anthropic counterpart, asked for in the system prompt');
    return formatInstruction(format);
  }
  body.output_config = { format: { type: 'json_schema', schema: toAnthropicOutputSchema(format.schema, warn) } };
  return undefined;
}

function toSystem(system: TextPart[] | undefined, instruction: string | undefined): AnthropicTextBlock[] | undefined {
  const blocks = (system ?? []).filter((part) => part.text.length > 0).map(toTextBlock);
  if (instruction) blocks.push({ type: 'text', text: instruction });
  return blocks.length > 0 ? blocks : undefined;
}

/** Settings the Messages API has no field for. */
function warnUnsupported(request: ChatRequest, warn: Warn): void {
  if (request.seed !== undefined) warn('seed: not supported by Anthropic, dropped');
  if (request.presencePenalty !== undefined) warn('presence_penalty: not supported by Anthropic, dropped');
  if (request.frequencyPenalty !== undefined) warn('frequency_penalty: not supported by Anthropic, dropped');
  if (request.tools?.some((tool) => tool.strict !== undefined)) warn('tools.strict: not sent to Anthropic, dropped');
}

function toToolChoice(request: ChatRequest): AnthropicToolChoice | undefined {
  const choice = request.toolChoice;
  const disableParallel = request.parallelToolCalls === false ? { disable_parallel_tool_use: true } : {};
  if (!choice) return request.parallelToolCalls === false ? { type: 'auto', disable_parallel_tool_use: true } : undefined;
  switch (choice.type) {
    case 'none':
      return { type: 'none' };
    case 'auto':
      return { type: 'auto', ...disableParallel };
    case 'required':
      return { type: 'any', ...disableParallel };
    case 'tool':
      return { type: 'tool', name: choice.name, ...disableParallel };
  }
}

export function toAnthropicMessages(request: ChatRequest, attempt: Attempt, stream: boolean): AnthropicMessagesRequest {
  const warn: Warn = (message) => attempt.warn?.(message);
  const body: AnthropicMessagesRequest = {
    model: attempt.upstreamModel,
    max_tokens: anthropicMaxTokens(request, attempt),
    messages: toAnthropicTurns(withoutForeignThinking(request.messages, attempt.channel.provider, warn)),
  };
  const system = toSystem(request.system, applyResponseFormat(body, request, attempt, warn));
  if (system) body.system = system;
  warnUnsupported(request, warn);
  applyThinkingAndSampling(body, request, attempt);
  if (request.stop && request.stop.length > 0) body.stop_sequences = request.stop;
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({
      name: tool.name,
      ...(tool.description !== undefined ? { description: tool.description } : {}),
      input_schema: tool.parameters.type === undefined ? { type: 'object', ...tool.parameters } : tool.parameters,
    }));
    const choice = toToolChoice(request);
    if (choice) body.tool_choice = choice;
  }
  if (request.user !== undefined) body.metadata = { user_id: request.user };
  if (stream) body.stream = true;
  return body;
}
