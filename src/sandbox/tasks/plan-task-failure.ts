/**
 * Whether a sandbox task is to fail, decided once at submit: always for the models the channel
 * names in `failModels`, else for a `taskFailureRate` share of tasks picked by a hash of the task
 * id (so one task's fate does not change when it is looked at again).
 */
import type { SandboxRuntimeSettings } from '../sandbox-settings.js';
import { hashSeed } from '../shared/hash-seed.js';

/** Planned failures happen a little past half-way, so clients see a task that ran and then failed. */
export const FAILURE_SHARE = 0.6;

export function planTaskFailure(
  settings: Pick<SandboxRuntimeSettings, 'failModels' | 'taskFailureRate'>,
  taskId: string,
  modelIds: readonly string[],
): { message: string; atShare: number } | undefined {
  for (const model of modelIds) {
    if (settings.failModels.has(model)) return { message: `model ${model} is configured to fail`, atShare: FAILURE_SHARE };
  }
  if (settings.taskFailureRate <= 0) return undefined;
  const roll = hashSeed(`task-failure:${taskId}`).seed / 2 ** 32;
  return roll < settings.taskFailureRate ? { message: `taskFailureRate ${settings.taskFailureRate}`, atShare: FAILURE_SHARE } : undefined;
}
