/**
 * The OpenAI videos webhook body (for a `callback_url` given at creation, a gateway extension),
 * for the task engine's dispatcher: the Video object as retrieve answers it, sent once the task
 * finished; nothing for the states before.
 */
import { isTerminalTaskStatus, type Task } from '../../core/task.js';
import { renderOpenAIVideo } from './render-video.js';

export function openaiVideosTaskNotifier(task: Task, _mediaUrl: (mediaId: string) => string): string | undefined {
  if (!isTerminalTaskStatus(task.status)) return undefined;
  return JSON.stringify(renderOpenAIVideo(task));
}
