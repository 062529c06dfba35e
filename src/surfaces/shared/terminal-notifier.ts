/**
 * The webhook body of the families that call back once: the task as `render` shows it, sent when
 * it finished; nothing for the states before.
 */
import { isTerminalTaskStatus, type Task, type TaskNotifier } from '../../core/task.js';

export function terminalNotifier(render: (task: Task, mediaUrl: (mediaId: string) => string) => unknown): TaskNotifier {
  return (task, mediaUrl) => (isTerminalTaskStatus(task.status) ? JSON.stringify(render(task, mediaUrl)) : undefined);
}
