/**
 * A task as an MJ-proxy task record — what `fetch`, `list-by-condition` and the notifyHook
 * webhook all send. Times are Unix milliseconds, as the MJ proxy sends them; progress is text
 * (`"0%"`…`"100%"`, and `""` after a failure, as the proxy does).
 */
import type { Task, TaskButton, TaskStatus } from '../../core/task.js';
import { statusWords } from '../shared/status-words.js';
import { actionWordOf } from './action-model.js';

interface ImgtaskRecord {
  id: string;
  action: string;
  prompt: string;
  promptEn: string;
  description: string;
  state: string | null;
  status: 'NOT_START' | 'SUBMITTED' | 'IN_PROGRESS' | 'SUCCESS' | 'FAILURE';
  progress: string;
  imageUrl: string | null;
  submitTime: number | null;
  startTime: number | null;
  finishTime: number | null;
  failReason: string | null;
  buttons: TaskButton[];
  properties: Record<string, unknown>;
}

const status = statusWords<ImgtaskRecord['status']>({
  queued: 'NOT_START',
  submitted: 'SUBMITTED',
  running: 'IN_PROGRESS',
  succeeded: 'SUCCESS',
  failed: 'FAILURE',
});

const DESCRIPTION: Record<TaskStatus, string> = {
  queued: 'Waiting to start',
  submitted: 'Submitted',
  running: 'In progress',
  succeeded: 'Success',
  failed: 'Failed',
  canceled: 'Canceled',
};

function actionOf(task: Task): string {
  switch (task.operation) {
    case 'image.imagine':
      return 'IMAGINE';
    case 'image.blend':
      return 'BLEND';
    case 'image.describe':
      return 'DESCRIBE';
    default:
      return actionWordOf(task.request.action?.customId ?? '');
  }
}

function progressOf(task: Task): string {
  if (task.status === 'failed' || task.status === 'canceled') return '';
  if (task.status === 'succeeded') return '100%';
  return `${Math.floor(task.progress * 100)}%`;
}

export function renderImgtaskRecord(task: Task, mediaUrl: (mediaId: string) => string): ImgtaskRecord {
  const first = task.result?.media[0];
  const prompt = task.operation === 'image.describe' ? (task.result?.text ?? '') : (task.request.prompt ?? '');
  return {
    id: task.id,
    action: actionOf(task),
    prompt,
    promptEn: prompt,
    description: DESCRIPTION[task.status],
    state: task.callback?.state ?? null,
    status: status(task.status),
    progress: progressOf(task),
    imageUrl: task.status === 'succeeded' && first ? mediaUrl(first.mediaId) : null,
    submitTime: task.submittedAt ?? task.createdAt,
    startTime: task.startedAt ?? null,
    finishTime: task.finishedAt ?? null,
    failReason: task.status === 'failed' || task.status === 'canceled' ? (task.error?.message ?? 'failed') : null,
    buttons: task.status === 'succeeded' ? (task.result?.buttons ?? []) : [],
    properties: task.parentId ? { parentTaskId: task.parentId } : {},
  };
}
