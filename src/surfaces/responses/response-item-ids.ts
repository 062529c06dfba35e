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

/**
 * The gateway's id for an item an upstream named (relayed Responses answers): the upstream id's
 * type prefix (`ws_`, `msg_`, …) kept when it has one, then 48 hexadecimal characters.
 */
export function newItemIdLike(upstreamId: string): string {
  const prefix = /^([a-z]{1,16})_/.exec(upstreamId)?.[1] ?? 'item';
  return `${prefix}_${randomHex(24)}`;
}
