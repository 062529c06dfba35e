/**
 * The imgtask submit bodies → task calls: imagine, blend (2–5 data URLs), describe and action.
 * Images are decoded and checked (type, size, declared pixels) here, before anything else.
 */
import { checkIdentifierText, checkStorableText } from '../../core/client-strings.js';
import { decodeImageString } from '../../core/image-bytes.js';
import type { ImageLimits } from '../../core/image-bytes.js';
import type { ImageInput } from '../../core/image.js';
import type { BlendDimensions, TaskOperation, TaskRequest } from '../../core/task.js';
import { invalidRequest } from '../../core/errors.js';
import { type Json, oneOf, optionalString, requireArray, requireObject, requireString } from '../../core/validate.js';
import { actionModelOf } from './action-model.js';

const MAX_PROMPT_CHARS = 8_192;
const MAX_STATE_CHARS = 4_096;
const MAX_ID_CHARS = 64;
const MAX_CUSTOM_ID_CHARS = 256;
const DIMENSIONS: readonly BlendDimensions[] = ['PORTRAIT', 'SQUARE', 'LANDSCAPE'];

export interface ParsedSubmit {
  operation: TaskOperation;
  request: TaskRequest;
  parentId?: string;
  notifyHook?: string;
  state?: string;
}

function bounded(value: string | undefined, param: string, max: number): string | undefined {
  if (value !== undefined && value.length > max) throw invalidRequest(`${param} is longer than ${max} characters`, param);
  return value;
}

function common(body: Json): Pick<ParsedSubmit, 'notifyHook' | 'state'> {
  const notifyHook = optionalString(body.notifyHook, 'notifyHook') || undefined;
  const state = bounded(optionalString(body.state, 'state'), 'state', MAX_STATE_CHARS);
  // The state is stored with the task and sent back in its webhooks: any text the database can hold.
  if (state !== undefined) checkStorableText(state, 'state');
  return { notifyHook, state };
}

function images(value: unknown, param: string, min: number, max: number, limits: ImageLimits): ImageInput[] {
  const list = requireArray(value, param);
  if (list.length < min || list.length > max) {
    throw invalidRequest(min === max ? `${param} must hold ${min} image` : `${param} must hold ${min} to ${max} images, got ${list.length}`, param);
  }
  return list.map((item, i) => decodeImageString(requireString(item, `${param}[${i}]`), `${param}[${i}]`, limits));
}

function prompt(body: Json, required: boolean): string | undefined {
  const text = required ? requireString(body.prompt, 'prompt') : optionalString(body.prompt, 'prompt');
  if (required && (text ?? '').trim() === '') throw invalidRequest('prompt must not be empty', 'prompt');
  return bounded(text, 'prompt', MAX_PROMPT_CHARS);
}

export function parseImagine(raw: unknown, limits: ImageLimits): ParsedSubmit {
  const body = requireObject(raw, 'body');
  const given = body.base64Array === undefined || body.base64Array === null ? [] : images(body.base64Array, 'base64Array', 0, 5, limits);
  return {
    operation: 'image.imagine',
    request: { model: 'imgtask-imagine', prompt: prompt(body, true), ...(given.length > 0 ? { images: given } : {}) },
    ...common(body),
  };
}

export function parseBlend(raw: unknown, limits: ImageLimits): ParsedSubmit {
  const body = requireObject(raw, 'body');
  const dimensions = body.dimensions === undefined || body.dimensions === null ? 'SQUARE' : oneOf(body.dimensions, 'dimensions', DIMENSIONS);
  return {
    operation: 'image.blend',
    request: { model: 'imgtask-blend', images: images(body.base64Array, 'base64Array', 2, 5, limits), dimensions, prompt: prompt(body, false) },
    ...common(body),
  };
}

export function parseDescribe(raw: unknown, limits: ImageLimits): ParsedSubmit {
  const body = requireObject(raw, 'body');
  const one = typeof body.base64 === 'string' ? [decodeImageString(body.base64, 'base64', limits)] : images(body.base64Array, 'base64Array', 1, 1, limits);
  return { operation: 'image.describe', request: { model: 'imgtask-describe', images: one }, ...common(body) };
}

export function parseAction(raw: unknown): ParsedSubmit {
  const body = requireObject(raw, 'body');
  const taskId = bounded(requireString(body.taskId, 'taskId'), 'taskId', MAX_ID_CHARS) as string;
  const customId = checkIdentifierText(bounded(requireString(body.customId, 'customId'), 'customId', MAX_CUSTOM_ID_CHARS) as string, 'customId');
  return {
    operation: 'image.action',
    request: { model: actionModelOf(customId), action: { customId } },
    parentId: taskId,
    ...common(body),
  };
}

/** `list-by-condition`: `{ids: [...]}` (at most 100). */
export function parseIdList(raw: unknown): string[] {
  const body = requireObject(raw, 'body');
  const ids = requireArray(body.ids, 'ids');
  if (ids.length > 100) throw invalidRequest('ids may hold at most 100 task ids', 'ids');
  return ids.map((id, i) => bounded(requireString(id, `ids[${i}]`), `ids[${i}]`, MAX_ID_CHARS) as string);
}
