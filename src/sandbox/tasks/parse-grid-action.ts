/** Reads a grid button's `customId` into the action it asks for; anything else is the client's error. */
import { invalidRequest } from '../../core/errors.js';

type GridAction = { kind: 'upsample'; index: number } | { kind: 'variation'; index: number } | { kind: 'reroll' };

const MAX_CUSTOM_ID_CHARS = 256;
const SHAPE = /^MJ::JOB::(upsample|variation|reroll)::(\d)::[A-Za-z0-9-]{1,64}(?:::[A-Za-z0-9_]{1,32})?$/;

export function parseGridAction(customId: string | undefined): GridAction {
  const match = customId && customId.length <= MAX_CUSTOM_ID_CHARS ? SHAPE.exec(customId) : null;
  if (match) {
    const index = Number(match[2]);
    if (match[1] === 'reroll' && index === 0) return { kind: 'reroll' };
    if ((match[1] === 'upsample' || match[1] === 'variation') && index >= 1 && index <= 4) return { kind: match[1], index };
  }
  throw invalidRequest('customId: the sandbox acts on MJ::JOB::upsample::<1-4>::…, MJ::JOB::variation::<1-4>::… and MJ::JOB::reroll::0::… buttons', 'customId');
}
