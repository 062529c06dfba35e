/**
 * A provider refuses what it cannot express naming the canonical field (`seconds`,
 * `aspectRatio`, `images[0]`…); the client must read the name of the field it sent. This
 * renames `param` through the surface's own mapping, and makes the message lead with the
 * client's field name (error shapes without a `param` member still name it); errors without a param, or with one the mapping does not know, pass unchanged.
 */
import { GatewayError } from '../../core/errors.js';

/** Canonical param (`seconds`, `images[1]`) → the surface's name for it, or undefined to leave it. */
export type ParamNames = (canonical: string) => string | undefined;

export function renameCanonicalParam(error: unknown, names: ParamNames): unknown {
  if (!(error instanceof GatewayError) || error.param === undefined) return error;
  const renamed = names(error.param);
  if (renamed === undefined || renamed === error.param) return error;
  const prefix = `${error.param}:`;
  const message = error.message.startsWith(prefix) ? `${renamed}:${error.message.slice(prefix.length)}` : `${renamed}: ${error.message}`;
  return new GatewayError(error.kind, message, {
    param: renamed,
    code: error.code,
    status: error.status,
    upstreamStatus: error.upstreamStatus,
    retryable: error.retryable,
    retryAfter: error.retryAfter,
    cause: error,
  });
}

/** Names from a plain table, for surfaces whose fields map one to one. */
export function paramTable(table: Readonly<Record<string, string>>): ParamNames {
  return (canonical) => (Object.hasOwn(table, canonical) ? table[canonical] : table[canonical.replace(/\[\d+\]$/, '')]);
}
