/**
 * An OpenAI Chat Completions request body → the canonical ChatRequest. Every rejection is an
 * `invalid_request` naming the offending param; unknown fields are ignored, as OpenAI's own
 * clients send newer fields than a gateway may know.
 */
import type { ChatRequest } from '../../core/chat.js';
import { invalidRequest } from '../../core/errors.js';
import { optionalBoolean, optionalInteger, optionalNumber, optionalString, optionalStringList, requireObject, requireString } from '../../core/validate.js';
import { parseReasoningEffort, thinkingBudgetForEffort } from '../shared/reasoning-effort.js';
import { parseOpenAIMessages } from './parse-chat-messages.js';
import { parseOpenAIResponseFormat } from './parse-response-format.js';
import { parseOpenAITools, parseOpenAIToolChoice } from './parse-tools.js';

/** OpenAI's own maximum for `n`. */
const MAX_CHOICES = 128;

export function parseOpenAIChatRequest(body: unknown): ChatRequest {
  const json = requireObject(body, 'body');
  const model = requireString(json.model, 'model');
  if (model.length === 0) throw invalidRequest('model: must not be empty', 'model');
  const { system, messages } = parseOpenAIMessages(json.messages);
  const stream = optionalBoolean(json.stream, 'stream') ?? false;
  const request: ChatRequest = { model, messages, stream };
  if (system.length > 0) request.system = system;

  // Several choices are answered where the target can (Gemini's candidateCount); others refuse.
  const n = optionalInteger(json.n, 'n', 1, MAX_CHOICES);
  if (n !== undefined && n > 1) request.n = n;

  assign(request, 'temperature', optionalNumber(json.temperature, 'temperature', 0, 2));
  assign(request, 'topP', optionalNumber(json.top_p, 'top_p', 0, 1));
  assign(request, 'stop', optionalStringList(json.stop, 'stop', 4));
  const maxCompletionTokens = optionalInteger(json.max_completion_tokens, 'max_completion_tokens', 1);
  const maxTokens = optionalInteger(json.max_tokens, 'max_tokens', 1);
  assign(request, 'maxTokens', maxCompletionTokens ?? maxTokens);
  assign(request, 'presencePenalty', optionalNumber(json.presence_penalty, 'presence_penalty', -2, 2));
  assign(request, 'frequencyPenalty', optionalNumber(json.frequency_penalty, 'frequency_penalty', -2, 2));
  assign(request, 'seed', optionalInteger(json.seed, 'seed'));
  assign(request, 'user', optionalString(json.user, 'user'));
  assign(request, 'responseFormat', parseOpenAIResponseFormat(json.response_format));
  assign(request, 'logprobs', optionalBoolean(json.logprobs, 'logprobs'));
  assign(request, 'topLogprobs', optionalInteger(json.top_logprobs, 'top_logprobs', 0, 20));

  const tools = parseOpenAITools(json.tools);
  if (tools && tools.length > 0) request.tools = tools;
  assign(request, 'toolChoice', parseOpenAIToolChoice(json.tool_choice, tools));
  assign(request, 'parallelToolCalls', optionalBoolean(json.parallel_tool_calls, 'parallel_tool_calls'));

  if (json.stream_options !== undefined && json.stream_options !== null) {
    const options = requireObject(json.stream_options, 'stream_options');
    const includeUsage = optionalBoolean(options.include_usage, 'stream_options.include_usage');
    if (stream && includeUsage) request.includeUsage = true;
  }
  assign(request, 'thinkingBudget', thinkingBudgetForEffort(parseReasoningEffort(json.reasoning_effort, 'reasoning_effort')));
  return request;
}

function assign<K extends keyof ChatRequest>(request: ChatRequest, key: K, value: ChatRequest[K] | undefined): void {
  if (value !== undefined) request[key] = value;
}
