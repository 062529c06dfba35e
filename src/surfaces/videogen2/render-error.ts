/**
 * videogen2's error answer. The spec shows none; videogen2's vendor (Volcengine Ark) answers
 * errors in OpenAI's shape `{error: {message, type, param, code}}` with the HTTP status of the
 * error, so this family does the same with OpenAI's renderer (and unknown `/videogen2/…` paths,
 * which `http/error-family.ts` leaves to OpenAI, answer alike).
 */
import type { ErrorRenderer } from '../../http/error-renderer.js';
import { renderOpenAIError } from '../openai/render-error.js';

export const renderVideogen2Error: ErrorRenderer = renderOpenAIError;
