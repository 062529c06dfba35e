/**
 * An upstream accepted a task after the sweep had already failed and refunded it: the submit's
 * answer came after the submit lease ran out and the sweep had given the submitter up twice (a
 * replica starved of CPU, a long pause). The task stays failed — the client was refunded and the
 * engine never bills a task it reported failed — but the accepted job is not lost track of: its
 * upstream id is recorded on the failed row (the operator finds it, `gengate tasks`), and it is
 * canceled upstream where the vendor can cancel, so the upstream does not run (and charge) a job
 * nobody will collect. Where the vendor cannot, the log says it runs upstream unbilled.
 */
import type { Logger } from 'pino';
import { toGatewayError } from '../core/errors.js';
import type { TaskSubmission } from '../providers/types.js';
import type { RuntimeChannel } from '../routing/channel-registry.js';
import type { TasksRepository } from '../store/tasks-repository.js';
import { targetOf } from './task-poller.js';

/** How long the upstream cancel of a late job may take. */
const CANCEL_TIMEOUT_MS = 10_000;

export async function keepLateAcceptance(
  deps: { repository: TasksRepository; logger: Logger },
  id: string,
  channel: RuntimeChannel,
  upstreamModel: string,
  submission: TaskSubmission,
): Promise<void> {
  const { repository, logger } = deps;
  const facts = { task: id, channel: channel.name, upstreamId: submission.upstreamId };
  const task = await repository.recordLateUpstream(id, {
    channel: channel.name,
    provider: channel.config.provider,
    upstream_model: upstreamModel,
    upstream_id: submission.upstreamId,
    upstream_data: submission.upstreamData ? JSON.stringify(submission.upstreamData) : null,
  });
  if (!task) {
    // Not a task ended without an upstream id: nothing this submit may write over.
    logger.error(facts, 'task accepted upstream after its submit lease ran out, but its row had moved on; the upstream job is not recorded');
    return;
  }
  const provider = channel.provider.tasks;
  if (!provider?.cancel) {
    logger.error(
      facts,
      'task accepted upstream after it was failed and refunded (its submit lease ran out); the vendor cannot cancel: the job runs upstream unbilled',
    );
    return;
  }
  try {
    await provider.cancel(targetOf(task), { channel: channel.config, signal: AbortSignal.timeout(CANCEL_TIMEOUT_MS) });
    logger.warn(facts, 'task accepted upstream after it was failed and refunded (its submit lease ran out); canceled upstream');
  } catch (error) {
    logger.error(
      { ...facts, err: toGatewayError(error).message },
      'task accepted upstream after it was failed and refunded; canceling it upstream failed: it may run upstream unbilled',
    );
  }
}
