/**
 * The imagegen1 webhook body, for the task engine's dispatcher: the lookup record, sent when
 * the task finishes (Replicate's `completed` event); nothing for the states before.
 */
import { isTerminalTaskStatus, type Task } from '../../core/task.js';
import { renderImagegen1Record } from './render-record.js';

export function imagegen1TaskNotifier(task: Task, mediaUrl: (mediaId: string) => string): string | undefined {
  if (!isTerminalTaskStatus(task.status)) return undefined;
  return JSON.stringify(renderImagegen1Record(task, mediaUrl));
}
