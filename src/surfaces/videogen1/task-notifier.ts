/**
 * The videogen1 webhook body, for the task engine's dispatcher: the lookup answer, sent once
 * the task finished; nothing for the states before. Its `video_url` is the download route, so
 * the media URL the dispatcher offers is not needed.
 */
import { isTerminalTaskStatus, type Task } from '../../core/task.js';
import { renderVideogen1Task } from './render-record.js';

export function videogen1TaskNotifier(task: Task, _mediaUrl: (mediaId: string) => string): string | undefined {
  if (!isTerminalTaskStatus(task.status)) return undefined;
  return JSON.stringify(renderVideogen1Task(task));
}
