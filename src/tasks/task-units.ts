import type { TaskOperation, TaskRequest } from '../core/task.js';

/** Default video length when the client gives none (the spec's default for every video family). */
const DEFAULT_VIDEO_SECONDS = 5;

/**
 * The priced units of a task: images asked for (imagegen1), seconds of video, else one task.
 * The catalog's `perUnit` price multiplies them.
 */
export function taskUnits(operation: TaskOperation, request: Pick<TaskRequest, 'count' | 'seconds'>): number {
  if (operation === 'image.generate') return request.count ?? 1;
  if (operation === 'video.generate') return request.seconds ?? DEFAULT_VIDEO_SECONDS;
  return 1;
}
