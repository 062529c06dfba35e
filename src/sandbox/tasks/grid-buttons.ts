/**
 * The follow-up buttons under a 2×2 grid, as an MJ proxy lists them: U1–U4 (upscale a quadrant),
 * V1–V4 (vary a quadrant) and reroll, each `customId` carrying a hash of the grid.
 */
import { createHash } from 'node:crypto';
import type { TaskButton } from '../../core/task.js';

const BUTTON = { type: 2, style: 2 } as const;

/** A uuid-shaped hash of the grid's bytes, like the message hashes MJ puts in its custom ids. */
export function gridHash(png: Uint8Array): string {
  const hex = createHash('sha256').update(png).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export function gridButtons(hash: string): TaskButton[] {
  const buttons: TaskButton[] = [];
  for (const n of [1, 2, 3, 4]) buttons.push({ customId: `MJ::JOB::upsample::${n}::${hash}`, label: `U${n}`, ...BUTTON });
  for (const n of [1, 2, 3, 4]) buttons.push({ customId: `MJ::JOB::variation::${n}::${hash}`, label: `V${n}`, ...BUTTON });
  buttons.push({ customId: `MJ::JOB::reroll::0::${hash}::SOLO`, emoji: '🔄', label: '', ...BUTTON });
  return buttons;
}
