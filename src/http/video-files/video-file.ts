/** The video of a finished video task: result 0, saved as `<id>.mp4`. */
import type { Task } from '../../core/task.js';
import { videoNotFound } from './find-video.js';
import type { TaskFile } from './serve-task-file.js';

/** `statusWord`: the task's status as the route's clients name it, for "not ready" errors. */
export function videoFile(task: Task, statusWord: string): TaskFile {
  return {
    index: 0,
    accepts: (ref) => ref.kind === 'video',
    absent: () => videoNotFound(task.id),
    filename: () => `${task.id}.mp4`,
    statusWord,
  };
}
