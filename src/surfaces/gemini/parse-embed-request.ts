/**
 * Gemini `embedContent` and `batchEmbedContents` bodies → one item per text to embed. Proto3
 * JSON: camelCase and snake_case are both accepted. A content's text parts are joined with a
 * newline into one input, as the API embeds a whole content as one vector.
 */
import type { EmbedTaskType } from '../../core/embed.js';
import { GatewayError } from '../../core/errors.js';
import { optionalInteger, optionalString, requireArray, requireObject, type Json } from '../../core/validate.js';
import { GEMINI_TASK_TYPES } from '../../core/wire/gemini-embed-types.js';
import { protoField, protoKey } from './proto-field.js';
import { describeValue } from '../../core/describe-value.js';

/** One text and the options it was sent with (a batch may mix options). */
export interface GeminiEmbedItem {
  text: string;
  taskType?: EmbedTaskType;
  title?: string;
  dimensions?: number;
}

/** The gateway splits batches for its upstreams; this only bounds one client request. */
const GEMINI_SURFACE_MAX_BATCH = 2048;

function fail(param: string, message: string): never {
  throw new GatewayError('invalid_request', `${param}: ${message}`, { param });
}

function join(prefix: string, key: string): string {
  return prefix.length > 0 ? `${prefix}.${key}` : key;
}

/** `:embedContent`: `model` (optional) must name the path's model. */
export function parseGeminiEmbedContentRequest(body: unknown, model: string): GeminiEmbedItem {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'the request body must be a JSON object (an EmbedContentRequest)');
  }
  const request = body as Json;
  checkModel(request.model, model, 'model', false);
  return parseEmbedFields(request, '');
}

/** `:batchEmbedContents`: each request's `model` must name the path's model. */
export function parseGeminiBatchEmbedRequest(body: unknown, model: string): GeminiEmbedItem[] {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new GatewayError('invalid_request', 'the request body must be a JSON object (a BatchEmbedContentsRequest)');
  }
  const list = (body as Json).requests;
  if (list === undefined || list === null) fail('requests', 'is required');
  const requests = requireArray(list, 'requests');
  if (requests.length === 0) fail('requests', 'at least one request is required');
  if (requests.length > GEMINI_SURFACE_MAX_BATCH) fail('requests', `at most ${GEMINI_SURFACE_MAX_BATCH} requests are allowed, got ${requests.length}`);
  return requests.map((item, i) => {
    const at = `requests[${i}]`;
    const request = requireObject(item, at);
    checkModel(request.model, model, `${at}.model`, true);
    return parseEmbedFields(request, at);
  });
}

function checkModel(value: unknown, model: string, param: string, inBatch: boolean): void {
  const given = optionalString(value, param);
  if (given === undefined) return;
  const name = given.startsWith('models/') ? given.slice('models/'.length) : given;
  if (name !== model) {
    const where = inBatch ? 'the model of the batch' : 'the model in the path';
    fail(param, `${describeValue(given)} does not match ${where} (models/${model})`);
  }
}

function parseEmbedFields(request: Json, at: string): GeminiEmbedItem {
  const item: GeminiEmbedItem = { text: parseContentText(request.content, join(at, 'content')) };

  const taskKey = join(at, protoKey(request, 'taskType', at));
  const taskValue = protoField(request, 'taskType');
  if (taskValue !== undefined && taskValue !== null && taskValue !== 'TASK_TYPE_UNSPECIFIED') {
    if (typeof taskValue !== 'string' || !GEMINI_TASK_TYPES.includes(taskValue as EmbedTaskType)) {
      fail(taskKey, `must be one of ${GEMINI_TASK_TYPES.join(', ')}, got ${describeValue(taskValue)}`);
    }
    item.taskType = taskValue as EmbedTaskType;
  }

  const titleKey = join(at, 'title');
  const title = optionalString(request.title, titleKey);
  if (title !== undefined && title.length > 0) {
    if (item.taskType !== 'RETRIEVAL_DOCUMENT') fail(titleKey, 'a title is only allowed with taskType RETRIEVAL_DOCUMENT');
    item.title = title;
  }

  const dimensionsKey = join(at, protoKey(request, 'outputDimensionality', at));
  const dimensions = optionalInteger(protoField(request, 'outputDimensionality'), dimensionsKey, 1);
  if (dimensions !== undefined) item.dimensions = dimensions;
  return item;
}

function parseContentText(value: unknown, param: string): string {
  if (value === undefined || value === null) fail(param, 'is required');
  const content = requireObject(value, param);
  const key = protoKey(content, 'parts', param);
  const partsKey = `${param}.${key}`;
  const parts = requireArray(content[key], partsKey);
  if (parts.length === 0) fail(partsKey, 'at least one part is required');
  const texts = parts.map((item, i) => {
    const at = `${partsKey}[${i}]`;
    const part = requireObject(item, at);
    if (typeof part.text !== 'string') fail(`${at}.text`, 'only text parts can be embedded');
    return part.text;
  });
  const text = texts.join('\n');
  if (text.length === 0) fail(param, 'the text to embed must not be empty');
  return text;
}
