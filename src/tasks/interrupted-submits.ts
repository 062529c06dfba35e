/**
 * The sweep of queued tasks whose submitting process went silent: its submit lease ran out
 * before the upstream's answer was written back. A dead submitter and a live one starved of CPU
 * (its lease heartbeat late) look alike here, and the starved one may still come back with an
 * upstream id — which it records over the queued row, whoever holds the lease
 * (`TasksRepository.recordSubmission`). So the sweep fails a task only at its second look: the
 * first takes the row under this poller's lease and counts the look (`poll_count`, unused while a
 * task is queued); only when that lease too ran out with the task still queued is it failed
 * `submit_interrupted` and refunded (never resubmitted: no vendor of ours takes an idempotency
 * key). A dead submitter's task thus ends one poller lease later than its submit lease.
 */
import type { StoredTask, TasksRepository } from '../store/tasks-repository.js';
import type { TaskFinisher } from './task-finisher.js';

interface SweepOptions {
  repository: TasksRepository;
  finisher: TaskFinisher;
  /** The sweeping poller's name on the leases it takes. */
  instance: string;
  leaseMs: number;
  /** Most tasks taken in one pass. */
  claimBatch: number;
}

/** One pass; true when it found something. */
export async function sweepInterruptedSubmits(options: SweepOptions, now: number): Promise<boolean> {
  const { repository, finisher, instance } = options;
  const stale = await repository.claimStaleQueued(now, options.claimBatch, instance, options.leaseMs);
  for (const task of stale) {
    if (!looked(task)) {
      // First look: the submitter has one more lease to write its answer back.
      await repository.update(task.id, instance, { poll_count: 1 }, false);
      continue;
    }
    await finisher.fail(
      task,
      {
        code: 'submit_interrupted',
        message: 'The gateway stopped before the upstream confirmed this task; it did not run and nothing is charged.',
        errorType: 'gateway.internal',
      },
      'failed',
      instance,
    );
  }
  return stale.length > 0;
}

function looked(task: StoredTask): boolean {
  return task.pollCount > 0;
}
