/**
 * The `/v1/video/generations` webhook body, for the task engine's dispatcher: the lookup
 * answer (Ark's callback carries its query shape too), sent once the task finished; nothing for
 * the states before.
 */
import { isTerminalTaskStatus, type Task } from '../../core/task.js';
import { renderVideoGenerationsTask } from './render-record.js';

export function videoGenerationsTaskNotifier(task: Task, _mediaUrl: (mediaId: string) => string): string | undefined {
  if (!isTerminalTaskStatus(task.status)) return undefined;
  return JSON.stringify(renderVideoGenerationsTask(task));
}
