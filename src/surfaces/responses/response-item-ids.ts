/**
 * Ids of the responses and output items the gateway issues in a Responses answer, in OpenAI's look: a type
 * prefix (`msg_` message, `fc_` function call, `rs_` reasoning) and 48 hexadecimal characters
 * (192 random bits), so they are unique across replicas without coordination.
 */
import { randomHex } from '../../core/random-pool.js';

type ResponseItemPrefix = 'msg' | 'fc' | 'rs';

export function newResponseItemId(prefix: ResponseItemPrefix): string {
  return `${prefix}_${randomHex(24)}`;
}

/** A response's own id, `resp_` and 48 hexadecimal characters: the gateway's on every upstream. */
export function newResponseId(): string {
  return `resp_${randomHex(24)}`;
}
