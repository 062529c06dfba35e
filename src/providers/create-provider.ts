/**
 * The one place a provider is assembled: name, operations, dialect, the simulation flag and the
 * task poll policy come from its descriptor, so neither a descriptor nor its factory restates them.
 * The factory loads the adapter's modules, so assembling is asynchronous.
 */
import type { TaskOperation } from '../core/task.js';
import { pollPolicyWithOptions } from './shared/task-poll-options.js';
import type { Provider, ProviderDescriptor, ProviderParts, TaskParts, TaskProvider } from './types.js';

export async function createProvider(descriptor: ProviderDescriptor): Promise<Provider> {
  return providerOf(descriptor, await descriptor.factory());
}

/** The provider of `descriptor` with parts made elsewhere (the sandbox with partial settings). */
export function providerOf(descriptor: ProviderDescriptor, { tasks, ...parts }: ProviderParts): Provider {
  return {
    name: descriptor.name,
    operations: new Set(descriptor.operations),
    ...(descriptor.dialect ? { dialect: descriptor.dialect } : {}),
    ...(descriptor.alsoRelays ? { alsoRelays: descriptor.alsoRelays } : {}),
    ...(descriptor.simulated ? { simulated: true } : {}),
    ...parts,
    ...(tasks ? { tasks: taskProviderOf(descriptor, tasks) } : {}),
  };
}

function taskProviderOf(descriptor: ProviderDescriptor, tasks: TaskParts): TaskProvider {
  // A task vendor's descriptor lists only task operations; its part then need not restate them.
  const operations = tasks.operations ?? new Set(descriptor.operations as readonly TaskOperation[]);
  const { pollPolicy } = tasks;
  if (pollPolicy) return { ...tasks, operations, pollPolicy };
  const polling = descriptor.taskPolling;
  if (!polling) throw new Error(`provider ${descriptor.name}: a task part without pollPolicy needs the descriptor's taskPolling`);
  return { ...tasks, operations, pollPolicy: (channel) => pollPolicyWithOptions(polling, channel) };
}
