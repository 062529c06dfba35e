/**
 * The sandbox's task provider: every image-task family and video generation offline. `submit` makes the real
 * outputs at once and stores them; the task then walks its states on a timeline kept in the
 * task row (`upstreamData`), so `poll` is arithmetic on that record and the clock and survives
 * a restart. Failures are planned at submit (`failModels`, `taskFailureRate`).
 */
import { randomBytes } from 'node:crypto';
import { invalidRequest } from '../../core/errors.js';
import type { MediaRef, TaskObservation, TaskOperation } from '../../core/task.js';
import { withDecodeSlot } from '../../media/image-decoding.js';
import type { ChannelConfig, TaskProvider, TaskSubmitAttempt, TaskTarget } from '../../providers/types.js';
import { type SandboxMediaLimits, sandboxMediaLimits } from '../sandbox-media-limits.js';
import type { SandboxRuntimeSettings } from '../sandbox-settings.js';
import { abortedError } from '../shared/sleep.js';
import { observeSandboxTask, vendorWord } from './observe-sandbox-task.js';
import { planTaskFailure } from './plan-task-failure.js';
import { type ProducedFile, produceTaskResult } from './produce-task-result.js';
import { produceVideoResult } from './produce-video-result.js';
import { readSandboxTaskRecord, type SandboxTaskRecord, toUpstreamData } from './sandbox-task-record.js';
import { sandboxTaskPollPolicy } from './task-poll-policy.js';

const SANDBOX_TASK_OPERATIONS: ReadonlySet<TaskOperation> = new Set<TaskOperation>([
  'image.imagine',
  'image.blend',
  'image.describe',
  'image.action',
  'image.generate',
  'video.generate',
]);

/** Stores a produced file; the record keeps its size and length along with the store's reference. */
async function store(file: ProducedFile, attempt: TaskSubmitAttempt): Promise<MediaRef> {
  const ref = await attempt.storeMedia(file.data, file.mime, file.kind);
  const kept: MediaRef = { ...ref };
  if (file.width !== undefined) kept.width = file.width;
  if (file.height !== undefined) kept.height = file.height;
  if (file.seconds !== undefined) kept.seconds = file.seconds;
  return kept;
}

function observe(target: TaskTarget, now: number): TaskObservation {
  const record = readSandboxTaskRecord(target.upstreamData);
  if (!record) {
    return { status: 'failed', vendorStatus: 'UNREADABLE', error: { code: 'upstream_failed', message: 'sandbox: the task has no readable sandbox record' } };
  }
  return observeSandboxTask(target.operation, record, now);
}

export function createSandboxTasks(
  settingsFor: (channel: ChannelConfig) => SandboxRuntimeSettings,
  limits: SandboxMediaLimits = sandboxMediaLimits(undefined),
): TaskProvider {
  return {
    operations: SANDBOX_TASK_OPERATIONS,

    pollPolicy(channel) {
      return sandboxTaskPollPolicy(settingsFor(channel).taskMs);
    },

    async submit(operation, request, attempt) {
      if (!SANDBOX_TASK_OPERATIONS.has(operation)) throw invalidRequest(`the sandbox has no ${operation} tasks`);
      const settings = settingsFor(attempt.channel);
      // Made even for a task planned to fail, so that a bad request is refused the same way.
      const produced =
        operation === 'video.generate'
          ? await produceVideoResult(request, attempt, limits)
          : await withDecodeSlot(() => produceTaskResult(operation, request, attempt), attempt.signal);
      if (attempt.signal.aborted) throw abortedError(attempt.signal);
      const failure = planTaskFailure(settings, attempt.taskId, [request.model, attempt.upstreamModel]);
      const outputs = failure ? [] : await Promise.all(produced.files.map((file) => store(file, attempt)));
      const record: SandboxTaskRecord = { startedAt: Date.now(), totalMs: settings.taskMs, outputs, grid: produced.grid };
      if (produced.seed !== undefined) record.seed = produced.seed;
      if (produced.text !== undefined) record.text = produced.text;
      if (produced.buttons !== undefined) record.buttons = produced.buttons;
      if (failure) record.failure = failure;
      return {
        upstreamId: `sbx-${randomBytes(12).toString('hex')}`,
        upstreamData: toUpstreamData(record),
        observation: { status: 'submitted', vendorStatus: vendorWord(operation, 'submitted'), progress: 0 },
      };
    },

    async poll(target) {
      return observe(target, Date.now());
    },

    async pollMany(targets) {
      const now = Date.now();
      return new Map(targets.map((target) => [target.upstreamId, observe(target, now)]));
    },
  };
}
