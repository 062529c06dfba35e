/**
 * The error body each family must answer with (docs/architecture.md, "Errors"): a checker per
 * family returns what is wrong with a body, or nothing.
 */
import type { Family } from './routes.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
const stringOrNull = (value: unknown) => typeof value === 'string' || value === null;

/** OpenAI: `{error: {message, type, param, code}}`, param and code a string or null. */
function openaiProblem(body: Json): string | undefined {
  const error = body.error;
  if (!isObject(error)) return 'no "error" object';
  if (typeof error.message !== 'string' || error.message === '') return 'error.message is not a non-empty string';
  if (typeof error.type !== 'string') return 'error.type is not a string';
  if (!('param' in error) || !stringOrNull(error.param)) return 'error.param is missing or not a string/null';
  if (!('code' in error) || !stringOrNull(error.code)) return 'error.code is missing or not a string/null';
  return undefined;
}

/** Anthropic: `{type: "error", error: {type, message}}`. */
function anthropicProblem(body: Json): string | undefined {
  if (body.type !== 'error') return 'type is not "error"';
  const error = body.error;
  if (!isObject(error)) return 'no "error" object';
  if (typeof error.type !== 'string') return 'error.type is not a string';
  if (typeof error.message !== 'string' || error.message === '') return 'error.message is not a non-empty string';
  return undefined;
}

/** Gemini: `{error: {code, message, status}}`, code equal to the HTTP status. */
function geminiProblem(body: Json, status: number): string | undefined {
  const error = body.error;
  if (!isObject(error)) return 'no "error" object';
  if (error.code !== status) return `error.code ${JSON.stringify(error.code)} is not the HTTP status ${status}`;
  if (typeof error.message !== 'string' || error.message === '') return 'error.message is not a non-empty string';
  if (typeof error.status !== 'string' || !/^[A-Z_]+$/.test(error.status)) return 'error.status is not an upper-case status name';
  return undefined;
}

/** imagegen2 answers as Ideogram does: `{detail: "<message>"}` (src/surfaces/imagegen2/render-error.ts). */
function imagegen2Problem(body: Json): string | undefined {
  if (typeof body.detail !== 'string' || body.detail === '') return '"detail" is not a non-empty string';
  return undefined;
}

/** imagegen1 answers as Replicate does: `{title, detail, status}`, status equal to the HTTP status (src/surfaces/imagegen1/render-error.ts). */
function imagegen1Problem(body: Json, status: number): string | undefined {
  if (typeof body.title !== 'string' || body.title === '') return '"title" is not a non-empty string';
  if (typeof body.detail !== 'string' || body.detail === '') return '"detail" is not a non-empty string';
  if (body.status !== status) return `"status" ${JSON.stringify(body.status)} is not the HTTP status ${status}`;
  return undefined;
}

/** imgtask answers as an MJ proxy does: `{code, description, result: null}`, code one of the proxy's failure codes (src/surfaces/imgtask/render-error.ts). */
function imgtaskProblem(body: Json): string | undefined {
  if (![3, 4, 9, 23, 24].includes(body.code as number)) return `"code" ${JSON.stringify(body.code)} is not one of the failure codes 3, 4, 9, 23, 24`;
  if (typeof body.description !== 'string' || body.description === '') return '"description" is not a non-empty string';
  if (body.result !== null) return '"result" is not null';
  return undefined;
}

/** videogen1 answers in its envelope: `{code, message, data: null}`, code a non-zero integer (src/surfaces/videogen1/render-error.ts). */
function videogen1Problem(body: Json): string | undefined {
  if (!Number.isInteger(body.code) || body.code === 0) return '"code" is not a non-zero integer';
  if (typeof body.message !== 'string' || body.message === '') return '"message" is not a non-empty string';
  if (body.data !== null) return '"data" is not null';
  return undefined;
}

/** The admin API: `{error: {code, message, requestId}}` (src/admin/render-admin-error.ts). */
function adminProblem(body: Json): string | undefined {
  const error = body.error;
  if (!isObject(error)) return 'no "error" object';
  if (typeof error.code !== 'string' || error.code === '') return 'error.code is not a non-empty string';
  if (typeof error.message !== 'string' || error.message === '') return 'error.message is not a non-empty string';
  return undefined;
}

/** What is wrong with an error answer of `family`, or undefined when it has the family's shape. */
export function errorShapeProblem(family: Family, status: number, contentType: string | undefined, text: string): string | undefined {
  if (family === 'none') return undefined;
  if (!contentType?.includes('application/json')) return `content-type ${JSON.stringify(contentType ?? '(none)')} is not JSON`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'body is not JSON';
  }
  if (!isObject(body)) return 'body is not a JSON object';
  switch (family) {
    case 'openai':
      return openaiProblem(body);
    case 'anthropic':
      return anthropicProblem(body);
    case 'gemini':
      return geminiProblem(body, status);
    case 'imagegen1':
      return imagegen1Problem(body, status);
    case 'imgtask':
      return imgtaskProblem(body);
    case 'videogen1':
      return videogen1Problem(body);
    case 'admin':
      return adminProblem(body);
    // imagegen2 and videogen3 both answer `{detail}` (Ideogram's and Luma's shape).
    default:
      return imagegen2Problem(body);
  }
}
