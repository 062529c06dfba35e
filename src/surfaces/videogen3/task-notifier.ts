/**
 * The videogen3 webhook body, for the task engine's dispatcher: the generation as the lookup
 * shows it, sent once it finished (Luma also calls back on state changes; the gateway's
 * families send terminal states only); nothing for the states before.
 */
import { isTerminalTaskStatus, type Task } from '../../core/task.js';
import { renderVideogen3Generation } from './render-generation.js';

export function videogen3TaskNotifier(task: Task, _mediaUrl: (mediaId: string) => string): string | undefined {
  if (!isTerminalTaskStatus(task.status)) return undefined;
  return JSON.stringify(renderVideogen3Generation(task));
}
