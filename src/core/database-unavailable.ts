/**
 * Whether an error means the database could not be reached or dropped the connection (a restart,
 * a crash, a network fault) rather than refusing a statement — so a request that needed it is
 * answered "unavailable, try again" (503) instead of a generic internal error. Pure: it reads
 * the error's code and message, as node-postgres, pg-pool and Node's sockets set them.
 */

/** Node's socket errors when the server is gone or unreachable. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);
/** SQLSTATE class 08 (connection exception), 57P01–57P03 (shut down, crashed, starting up), 53300 (too many connections). */
const POSTGRES_UNAVAILABLE = /^(?:08[0-9A-Z]{3}|57P0[123]|53300)$/;
/** node-postgres' and pg-pool's own words for a lost or impossible connection. */
const DRIVER_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /not queryable/,
  /^Client was closed and is not queryable/,
  /^Cannot use a pool after calling end on the pool/,
];

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 3 || error === null || typeof error !== 'object') return false;
  const found = error as { code?: unknown; message?: unknown; errors?: unknown; cause?: unknown };
  if (typeof found.code === 'string' && (NETWORK_CODES.has(found.code) || POSTGRES_UNAVAILABLE.test(found.code))) return true;
  if (typeof found.message === 'string' && DRIVER_MESSAGES.some((pattern) => pattern.test(found.message as string))) return true;
  // A refused "localhost" is an AggregateError with one error per address.
  if (Array.isArray(found.errors) && found.errors.length > 0) return isDatabaseUnavailable(found.errors[0], depth + 1);
  return found.cause !== undefined && isDatabaseUnavailable(found.cause, depth + 1);
}
