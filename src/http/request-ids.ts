import { randomId } from '../core/ids.js';

/**
 * Request ids unique across processes and restarts: a random prefix per process and a counter,
 * so the hot path draws no random bytes. They identify requests; they are not secrets.
 */
export function requestIds(): () => string {
  const prefix = `req_${randomId(12)}`;
  let counter = 0;
  return () => `${prefix}${(counter++).toString(36).padStart(6, '0')}`;
}
