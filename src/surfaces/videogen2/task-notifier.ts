/**
 * The videogen2 webhook body, for the task engine's dispatcher: the lookup answer, sent once
 * the task finished; nothing for the states before.
 */
import { isTerminalTaskStatus, type Task } from '../../core/task.js';
import { renderVideogen2Task } from './render-record.js';

export function videogen2TaskNotifier(task: Task, _mediaUrl: (mediaId: string) => string): string | undefined {
  if (!isTerminalTaskStatus(task.status)) return undefined;
  return JSON.stringify(renderVideogen2Task(task));
}
