/**
 * Ids of the output items the gateway issues in a Responses answer, in OpenAI's look: a type
 * prefix (`msg_` message, `fc_` function call, `rs_` reasoning) and 48 hexadecimal characters
 * (192 random bits), so they are unique across replicas without coordination.
 */
import { randomBytes } from 'node:crypto';

type ResponseItemPrefix = 'msg' | 'fc' | 'rs';

export function newResponseItemId(prefix: ResponseItemPrefix): string {
  return `${prefix}_${randomBytes(24).toString('hex')}`;
}
