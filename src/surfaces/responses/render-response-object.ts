/**
 * The Responses API's response object around a set of output items: id, status,
 * `incomplete_details`, `error`, usage in Responses' shape, and the request fields a response
 * echoes (`context.echo`). Shared by the JSON and the stream renderer, which build it for every
 * state a response passes through (`in_progress`, then `completed`, `incomplete` or `failed`).
 * `output_text` is left out: it is a convenience the SDKs compute, not part of the wire object.
 */
import type { FinishReason } from '../../core/chat.js';
import type { GatewayError } from '../../core/errors.js';
import { nowSeconds } from '../../core/ids.js';
import type { ResponseItem } from '../../core/responses.js';
import type { Usage } from '../../core/usage.js';
import { toResponsesUsage } from './responses-usage.js';
import type { RenderContext, RenderedResponse } from './seams.js';

type ResponseStatus = 'in_progress' | 'completed' | 'incomplete' | 'failed';
type IncompleteReason = 'max_output_tokens' | 'content_filter';

interface ResponseError {
  code: string;
  message: string;
}

export interface ResponseState {
  status: ResponseStatus;
  output: ResponseItem[];
  /** Absent while in progress and for a failed response. */
  usage?: Usage;
  incompleteReason?: IncompleteReason;
  error?: ResponseError;
}

/** Fields the gateway sets itself: an echoed request field of the same name never replaces them. */
const OWN_FIELDS: ReadonlySet<string> = new Set([
  'id',
  'object',
  'created_at',
  'status',
  'completed_at',
  'error',
  'incomplete_details',
  'model',
  'output',
  'output_text',
  'previous_response_id',
  'usage',
]);

/** What a canonical finish reason makes of a response: a cut answer is `incomplete`, saying why. */
export function outcomeOf(reason: FinishReason): { status: 'completed' | 'incomplete'; incompleteReason?: IncompleteReason } {
  if (reason === 'length') return { status: 'incomplete', incompleteReason: 'max_output_tokens' };
  if (reason === 'content_filter') return { status: 'incomplete', incompleteReason: 'content_filter' };
  return { status: 'completed' };
}

/**
 * The response object in full. The fields OpenAI always returns get their defaults when the
 * echo has none (no instructions, no tools, `tool_choice` auto, …); `completed_at` is set when
 * the response completed.
 */
export function responseObject(context: RenderContext, state: ResponseState): Record<string, unknown> {
  const object: Record<string, unknown> = {
    id: context.responseId,
    object: 'response',
    created_at: context.createdAt,
    status: state.status,
    completed_at: state.status === 'completed' ? nowSeconds() : null,
    error: state.error ?? null,
    incomplete_details: state.incompleteReason ? { reason: state.incompleteReason } : null,
    instructions: null,
    metadata: {},
    model: context.model,
    output: state.output,
    parallel_tool_calls: true,
    previous_response_id: context.previousResponseId ?? null,
    temperature: null,
    tool_choice: 'auto',
    tools: [],
    top_p: null,
  };
  const { echo } = context;
  for (const key of Object.keys(echo)) if (!OWN_FIELDS.has(key)) object[key] = echo[key];
  object.usage = state.usage ? toResponsesUsage(state.usage) : null;
  return object;
}

/** A failed response's `error`: OpenAI's codes for a response that failed (`server_error` unless a closer one applies). */
export function toResponseError(error: GatewayError): ResponseError {
  return { code: responseErrorCode(error), message: error.message };
}

const RESPONSE_ERROR_CODES: ReadonlySet<string> = new Set([
  'server_error',
  'rate_limit_exceeded',
  'invalid_prompt',
  'invalid_image',
  'invalid_image_format',
  'invalid_base64_image',
  'invalid_image_url',
  'image_too_large',
  'image_too_small',
  'image_parse_error',
  'image_content_policy_violation',
  'invalid_image_mode',
  'image_file_too_large',
  'unsupported_image_media_type',
  'empty_image_file',
  'failed_to_download_image',
  'image_file_not_found',
]);

function responseErrorCode(error: GatewayError): string {
  if (error.code !== undefined && RESPONSE_ERROR_CODES.has(error.code)) return error.code;
  if (error.kind === 'rate_limit') return 'rate_limit_exceeded';
  if (error.kind === 'invalid_request') return 'invalid_prompt';
  return 'server_error';
}

/**
 * The response object as the client sees it: reasoning items keep their sealed
 * `encrypted_content` only when `include` asks for `reasoning.encrypted_content`. The full object
 * (what the gateway stores) is not changed.
 */
export function forClient(rendered: RenderedResponse, include: readonly string[]): Record<string, unknown> {
  const output = rendered.object.output;
  if (include.includes('reasoning.encrypted_content') || !Array.isArray(output) || !output.some(hasEncryptedContent)) return rendered.object;
  return { ...rendered.object, output: output.map((item: ResponseItem) => (hasEncryptedContent(item) ? withoutEncryptedContent(item) : item)) };
}

function hasEncryptedContent(item: ResponseItem): boolean {
  return item.type === 'reasoning' && item.encrypted_content !== undefined;
}

/** A reasoning item without its `encrypted_content` (a copy; the item itself is kept whole). */
export function withoutEncryptedContent(item: ResponseItem): ResponseItem {
  const { encrypted_content: _sealed, ...rest } = item;
  return rest as ResponseItem;
}
