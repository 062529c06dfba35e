import type { GatewayError } from '../core/errors.js';

/** How a surface renders an error: status, body and extra headers. */
export interface RenderedError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type ErrorRenderer = (error: GatewayError, requestId: string) => RenderedError;
