/**
 * The canonical ChatRequest → an Anthropic Messages API request body.
 */
import type { ChatRequest, ResponseFormat, TextPart } from '../../core/chat.js';
import type { AnthropicMessagesRequest, AnthropicTextBlock, AnthropicToolChoice } from '../../core/wire/anthropic-types.js';
import type { Attempt } from '../types.js';
import { anthropicMaxTokens, applyThinkingAndSampling } from './anthropic-thinking.js';
import { toTextBlock } from './to-anthropic-content.js';
import { toAnthropicTurns } from './to-anthropic-turns.js';

/**
 * Anthropic has no response-format field: JSON output is asked for in the system prompt.
 */
function formatInstruction(format: ResponseFormat | undefined): string | undefined {
  if (!format || format.type === 'text') return undefined;
  if (format.type === 'json_object') return 'Respond with a single valid JSON object and nothing else: no prose, no code fences.';
  return `Respond with a single valid JSON object and nothing else (no prose, no code fences) that conforms to this JSON Schema:\n${JSON.stringify(format.schema)}`;
}

function toSystem(system: TextPart[] | undefined, format: ResponseFormat | undefined): AnthropicTextBlock[] | undefined {
  const blocks = (system ?? []).filter((part) => part.text.length > 0).map(toTextBlock);
  const instruction = formatInstruction(format);
  if (instruction) blocks.push({ type: 'text', text: instruction });
  return blocks.length > 0 ? blocks : undefined;
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
  const body: AnthropicMessagesRequest = {
    model: attempt.upstreamModel,
    max_tokens: anthropicMaxTokens(request, attempt),
    messages: toAnthropicTurns(request.messages),
  };
  const system = toSystem(request.system, request.responseFormat);
  if (system) body.system = system;
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
