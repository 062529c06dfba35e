/** Public task ids: unguessable, never the upstream's id, shaped like each family's own. */
import { randomBytes } from 'node:crypto';
import type { TaskSurface } from '../core/task.js';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** 19 decimal digits, like the MJ proxy's ids (about 62 random bits). */
function digitsId(): string {
  const bytes = randomBytes(19);
  let id = String(1 + (bytes[0] % 9));
  for (let i = 1; i < 19; i++) id += String(bytes[i] % 10);
  return id;
}

/** 26 lowercase base32 characters (130 random bits), like Replicate's prediction ids. */
export function base32Id(length = 26): string {
  const bytes = randomBytes(length);
  let id = '';
  for (let i = 0; i < length; i++) id += BASE32[bytes[i] & 31];
  return id;
}

/** imgtask: 19 digits; imagegen1: Replicate-like; OpenAI videos: `video_…`; the other video families: `task_…`. */
export function newTaskId(surface: TaskSurface): string {
  if (surface === 'imgtask') return digitsId();
  if (surface === 'imagegen1') return base32Id();
  if (surface === 'openai-videos') return `video_${base32Id()}`;
  return `task_${base32Id()}`;
}
