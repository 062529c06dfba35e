/**
 * GatewayError → the imagegen2 error answer. The spec shows no error shape for these paths, so
 * they answer as Ideogram itself does — `{"detail": "<message>"}` — with the status of the
 * error's kind (400, 401, 403, 404, 413, 429, 5xx), except that a safety refusal answers 422,
 * Ideogram's status for "failed the safety check".
 */
import type { GatewayError } from '../../core/errors.js';
import type { IdeogramErrorBody } from '../../core/wire/ideogram-types.js';
import type { ErrorRenderer } from '../../http/error-renderer.js';

const SAFETY_CODE = 'content_policy_violation';

export const renderImagegen2Error: ErrorRenderer = (error: GatewayError, requestId: string) => {
  const body: IdeogramErrorBody = { detail: error.message };
  const status = error.code === SAFETY_CODE ? 422 : error.status;
  return { status, body, headers: { 'x-request-id': requestId } };
};
