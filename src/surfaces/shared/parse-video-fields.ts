/**
 * The fields every video surface reads, checked the same way: each check throws a 400
 * `invalid_request` naming the field as the client wrote it, before anything is submitted.
 */
import { describeValue } from '../../core/describe-value.js';
import { invalidRequest } from '../../core/errors.js';
import { type Json, oneOf, optionalInteger, optionalString, requireString } from '../../core/validate.js';

const MAX_VIDEO_PROMPT_CHARS = 10_000;
/** Bounds on a video's length the gateway accepts at all; each provider may refuse less. */
export const MIN_VIDEO_SECONDS = 1;
export const MAX_VIDEO_SECONDS = 20;
export const DEFAULT_VIDEO_SECONDS = 5;
/** Public model ids: letters, digits and `._:/-`, as the catalog names them. */
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$/;

/** The request body as a JSON object (an empty or non-object body is a 400 of its own). */
export function requireBody(body: unknown): Json {
  if (body === undefined) throw invalidRequest('the request body is empty; a JSON object is required');
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw invalidRequest('the request body must be a JSON object');
  return body as Json;
}

/** A prompt: a non-blank string of at most MAX_VIDEO_PROMPT_CHARS characters. */
export function parseVideoPrompt(value: unknown, param: string): string {
  const prompt = requireString(value, param);
  checkPromptText(prompt, param);
  return prompt;
}

export function checkPromptText(prompt: string, param: string): void {
  if (prompt.trim() === '') throw invalidRequest(`${param}: must not be empty`, param);
  if (prompt.length > MAX_VIDEO_PROMPT_CHARS)
    throw invalidRequest(`${param}: must be at most ${MAX_VIDEO_PROMPT_CHARS} characters, got ${prompt.length}`, param);
}

/** A model id, or `fallback` when absent (no fallback: required). */
export function parseVideoModel(value: unknown, param: string, fallback?: string): string {
  const model = fallback === undefined ? requireString(value, param) : (optionalString(value, param) ?? fallback);
  if (!MODEL_ID.test(model)) throw invalidRequest(`${param}: must be a model id such as "videogen1-video-01", got ${describeValue(model)}`, param);
  return model;
}

/** Whole seconds within the gateway's bounds, DEFAULT_VIDEO_SECONDS when absent. */
export function parseVideoSeconds(value: unknown, param: string): number {
  return optionalInteger(value, param, MIN_VIDEO_SECONDS, MAX_VIDEO_SECONDS) ?? DEFAULT_VIDEO_SECONDS;
}

/** Checks seconds read from text (a `--duration 5` flag, a `"5s"` string) against the same bounds. */
export function checkVideoSeconds(seconds: number, param: string): number {
  if (!Number.isInteger(seconds)) throw invalidRequest(`${param}: expected a whole number of seconds, got ${seconds}`, param);
  if (seconds < MIN_VIDEO_SECONDS || seconds > MAX_VIDEO_SECONDS)
    throw invalidRequest(`${param}: must be between ${MIN_VIDEO_SECONDS} and ${MAX_VIDEO_SECONDS} seconds, got ${seconds}`, param);
  return seconds;
}

/** One of `allowed`, or undefined when absent. */
export function optionalChoice<T extends string>(value: unknown, param: string, allowed: readonly T[]): T | undefined {
  if (value === undefined || value === null) return undefined;
  return oneOf(value, param, allowed);
}

/** The client's webhook URL, checked with the gateway's rules; undefined when absent. */
export function parseCallbackUrl(value: unknown, param: string, checkCallbackUrl: (url: string, param: string) => void): { url: string } | undefined {
  const url = optionalString(value, param);
  if (url === undefined) return undefined;
  checkCallbackUrl(url, param);
  return { url };
}
