/**
 * Replicate answers invalid model input with 422 ("Input validation failed"), not 400; the
 * imagegen1 surface does the same for every field check. A body that is missing or not JSON
 * stays a 400: that is a malformed request, not invalid input.
 */
import { GatewayError } from '../../core/errors.js';

/** Runs `parse`, turning its 400 `invalid_request` errors into 422s with the same message, field and code. */
export function unprocessable<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof GatewayError && error.kind === 'invalid_request' && error.status === 400) {
      throw new GatewayError('invalid_request', error.message, { param: error.param, code: error.code, status: 422, cause: error });
    }
    throw error;
  }
}
