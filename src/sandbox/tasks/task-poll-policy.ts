import type { TaskPollPolicy } from '../../providers/types.js';

const MIN_DEADLINE_MS = 10 * 60_000;

/** Polls soon after submit (a tenth of the task's time, 50–500 ms), then every second at most. */
export function sandboxTaskPollPolicy(taskMs: number): TaskPollPolicy {
  return {
    firstDelayMs: Math.min(500, Math.max(50, taskMs / 10)),
    factor: 1.5,
    maxDelayMs: 1_000,
    deadlineMs: Math.max(MIN_DEADLINE_MS, 3 * taskMs),
    maxBatch: 200,
  };
}
