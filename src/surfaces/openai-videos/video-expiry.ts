/**
 * When a completed video's file goes (Unix ms), from the media store's retention; undefined for
 * a task without a stored video, or one already gone. Opening the file only reads its metadata:
 * the stream is closed unread.
 */
import type { Task } from '../../core/task.js';
import type { TaskServices } from '../../gateway/contract.js';

export async function videoExpiry(tasks: TaskServices, task: Task): Promise<number | undefined> {
  if (task.status !== 'succeeded' || task.result?.media[0]?.kind !== 'video') return undefined;
  const opened = await tasks.openResult(task, 0);
  if (opened.kind !== 'found') return undefined;
  opened.media.body.destroy();
  return opened.media.expiresAt;
}
