/**
 * The canonical task status in the words of `/v1/video/generations` (the design's choice for
 * the spec's unshown lookup): `submitted` until the model runs, then `processing`, `succeeded`
 * or `failed`. A canceled task is `failed`, its error code `canceled`.
 */
import type { TaskStatus } from '../../core/task.js';

export type VideoGenerationsStatus = 'submitted' | 'processing' | 'succeeded' | 'failed';

const WORDS: Record<TaskStatus, VideoGenerationsStatus> = {
  queued: 'submitted',
  submitted: 'submitted',
  running: 'processing',
  succeeded: 'succeeded',
  failed: 'failed',
  canceled: 'failed',
};

export function videoGenerationsStatus(status: TaskStatus): VideoGenerationsStatus {
  return WORDS[status];
}
