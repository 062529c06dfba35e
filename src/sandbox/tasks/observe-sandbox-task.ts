/**
 * A sandbox task's state at a moment, computed from its record and the clock alone (no I/O, no
 * memory of earlier polls): submitted for the first tenth of its time, then running with
 * progress rising, then succeeded with its results — or, when planned to fail, failed once it
 * has run to its failure point.
 */
import type { TaskObservation, TaskOperation } from '../../core/task.js';
import type { SandboxTaskRecord } from './sandbox-task-record.js';

/** Share of the task's time spent waiting to start. */
const SUBMITTED_SHARE = 0.1;

type Phase = 'submitted' | 'running' | 'succeeded' | 'failed';

/** The vendor's words: imgtask operations speak the MJ proxy's, imagegen1 Replicate's, videos Ark's. */
const WORDS: Record<'imgtask' | 'imagegen1' | 'video', Record<Phase, string>> = {
  imgtask: { submitted: 'SUBMITTED', running: 'IN_PROGRESS', succeeded: 'SUCCESS', failed: 'FAILURE' },
  imagegen1: { submitted: 'starting', running: 'processing', succeeded: 'succeeded', failed: 'failed' },
  video: { submitted: 'queued', running: 'running', succeeded: 'succeeded', failed: 'failed' },
};

export function vendorWord(operation: TaskOperation, phase: Phase): string {
  const family = operation === 'image.generate' ? 'imagegen1' : operation === 'video.generate' ? 'video' : 'imgtask';
  return WORDS[family][phase];
}

/** How far along the task is (0 at submit, 1 at its end); a task of no duration is done at once. */
function elapsedShare(record: SandboxTaskRecord, now: number): number {
  if (record.totalMs <= 0) return Number.POSITIVE_INFINITY;
  return Math.max(0, now - record.startedAt) / record.totalMs;
}

export function observeSandboxTask(operation: TaskOperation, record: SandboxTaskRecord, now: number): TaskObservation {
  const share = elapsedShare(record, now);
  const { failure } = record;
  if (failure && share >= failure.atShare) {
    return {
      status: 'failed',
      vendorStatus: vendorWord(operation, 'failed'),
      error: { code: 'upstream_failed', message: `Simulated failure (sandbox): ${failure.message}` },
    };
  }
  if (share >= 1) {
    const observation: TaskObservation = {
      status: 'succeeded',
      vendorStatus: vendorWord(operation, 'succeeded'),
      progress: 1,
      outputs: record.outputs.map((stored) => ({ stored })),
    };
    if (record.seed !== undefined) observation.seed = record.seed;
    if (record.text !== undefined) observation.text = record.text;
    if (record.buttons !== undefined) observation.buttons = record.buttons;
    const seconds = record.outputs.find((ref) => ref.kind === 'video')?.seconds;
    if (seconds !== undefined) observation.usage = { seconds };
    return observation;
  }
  if (share < SUBMITTED_SHARE) return { status: 'submitted', vendorStatus: vendorWord(operation, 'submitted'), progress: 0 };
  // Whole percents, below 1 until the task is done.
  return { status: 'running', vendorStatus: vendorWord(operation, 'running'), progress: Math.min(99, Math.floor(share * 100)) / 100 };
}
