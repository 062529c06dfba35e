/**
 * The canonical task status in OpenAI's video words: `queued` until the model runs, then
 * `in_progress`, `completed` or `failed`. A canceled task is `failed` (its error says why).
 */
import type { TaskStatus } from '../../core/task.js';

export type OpenAIVideoStatus = 'queued' | 'in_progress' | 'completed' | 'failed';

const WORDS: Record<TaskStatus, OpenAIVideoStatus> = {
  queued: 'queued',
  submitted: 'queued',
  running: 'in_progress',
  succeeded: 'completed',
  failed: 'failed',
  canceled: 'failed',
};

export function openaiVideoStatus(status: TaskStatus): OpenAIVideoStatus {
  return WORDS[status];
}
